"""`expand-gpu-composites`: the composite `gpu` ops become their definitions (the `lam`s of
MimIR's gpu.mim).

- `gpu.alloc_copy.block` → `gpu.alloc.block` + `gpu.copy_to_device.block`; `gpu.alloc_copy.asyn`
  → `gpu.alloc.asyn` + `gpu.copy_to_device.asyn` on the same stream.
- `gpu.with_streams` (count n) → a host array of n stream slots (`mem.alloc`, never freed, as in
  MimIR); per slot `mem.lea` + `gpu.stream_init`; per slot `mem.load` of the stream; the region,
  inlined with those streams; per stream `gpu.stream_deinit` (no implicit sync). MimIR loops over
  the slots; the count is static here, so the loops are unrolled.
- `gpu.synced_scope` → `gpu.sync_work_items`; the region, inlined; `gpu.sync_work_items`.

Composites nested in composites (or in `scf` regions) expand too.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.arith import ConstantOp
from xdsl.dialects.builtin import IndexType, IntegerAttr, ModuleOp
from xdsl.ir import Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint

from gpuir.dialects.gpu import (
    STREAM,
    AllocAsynOp,
    AllocBlockOp,
    AllocCopyAsynOp,
    AllocCopyBlockOp,
    CopyToDeviceAsynOp,
    CopyToDeviceBlockOp,
    StreamDeinitOp,
    StreamInitOp,
    SyncedScopeOp,
    SyncWorkItemsOp,
    WithStreamsOp,
    YieldOp,
)
from gpuir.dialects.mem import HOST, ArrayType, LeaOp, LoadOp, PtrType
from gpuir.dialects.mem import AllocOp as MemAllocOp
from gpuir.ir.pass_manager import Statistic
from gpuir.passes.locations import apply_patterns, keeping


def inline_body(
    rewriter: PatternRewriter,
    body: Region,
    before: WithStreamsOp | SyncedScopeOp,
    args: Sequence[SSAValue],
) -> tuple[SSAValue, ...]:
    """Move the single block of `body` in front of `before`, its arguments replaced by `args`;
    return what its `gpu.yield` yielded (the yield is erased)."""
    terminator = body.block.last_op
    assert isinstance(terminator, YieldOp)  # the composites' verifiers guarantee it
    rewriter.inline_block(body.block, InsertPoint.before(before), args)
    yielded = tuple(terminator.values)
    rewriter.erase(terminator)
    return yielded


class ExpandAllocCopyBlock(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: AllocCopyBlockOp, rewriter: PatternRewriter, /):
        assert isinstance(op.res.type, PtrType)
        alloc = AllocBlockOp(op.m1, op.res.type)
        copy = CopyToDeviceBlockOp(op.m0, alloc.res_mem, op.src, alloc.res)
        rewriter.replace(op, [alloc, copy], [copy.res_m0, copy.res_m1, alloc.res])


class ExpandAllocCopyAsyn(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: AllocCopyAsynOp, rewriter: PatternRewriter, /):
        assert isinstance(op.res.type, PtrType)
        alloc = AllocAsynOp(op.m1, op.res.type, stream=op.stream)
        copy = CopyToDeviceAsynOp(op.m0, alloc.res_mem, op.src, alloc.res, op.stream)
        rewriter.replace(op, [alloc, copy], [copy.res_m0, copy.res_m1, alloc.res])


class ExpandWithStreams(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: WithStreamsOp, rewriter: PatternRewriter, /):
        count = op.count.value.data
        alloc = MemAllocOp(op.m0, PtrType(ArrayType(count, STREAM), HOST))
        alloc.res.name_hint = "stream_slots"
        rewriter.insert(alloc)
        m0, m1 = alloc.res_mem, op.m1
        slots: list[SSAValue] = []
        for i in range(count):
            index = rewriter.insert(ConstantOp(IntegerAttr(i, IndexType())))
            slot = rewriter.insert(LeaOp(alloc.res, index.result))
            init = rewriter.insert(StreamInitOp(m0, m1, slot.res))
            m0, m1 = init.res_m0, init.res_m1
            slots.append(slot.res)
        streams: list[SSAValue] = []
        for slot in slots:
            load = rewriter.insert(LoadOp(m0, slot))
            m0 = load.res_mem
            streams.append(load.res)
        m0, m1 = inline_body(rewriter, op.body, op, (m0, m1, *streams))
        deinits: list[StreamDeinitOp] = []
        for stream in streams:
            deinits.append(StreamDeinitOp(m0, m1, stream))
            m0, m1 = deinits[-1].res_m0, deinits[-1].res_m1
        rewriter.replace(op, deinits, [m0, m1])


class ExpandSyncedScope(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: SyncedScopeOp, rewriter: PatternRewriter, /):
        enter = rewriter.insert(SyncWorkItemsOp(op.m1, op.m3))
        m1, m3 = inline_body(rewriter, op.body, op, (enter.res_m1, enter.res_m3))
        leave = SyncWorkItemsOp(m1, m3)
        rewriter.replace(op, leave, [leave.res_m1, leave.res_m3])


@dataclass(frozen=True)
class ExpandGpuCompositesPass(ModulePass):
    """Rewrite `gpu.alloc_copy.*`, `gpu.with_streams` and `gpu.synced_scope` into their
    definitions."""

    name = "expand-gpu-composites"

    alloc_copy_block = Statistic(
        "num-alloc-copy-block-expanded", "Number of gpu.alloc_copy.block ops expanded"
    )
    alloc_copy_asyn = Statistic(
        "num-alloc-copy-asyn-expanded", "Number of gpu.alloc_copy.asyn ops expanded"
    )
    with_streams = Statistic("num-with-streams-expanded", "Number of gpu.with_streams ops expanded")
    synced_scopes = Statistic(
        "num-synced-scopes-expanded", "Number of gpu.synced_scope ops expanded"
    )

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        patterns = [
            *keeping(self.alloc_copy_block, ExpandAllocCopyBlock()),
            *keeping(self.alloc_copy_asyn, ExpandAllocCopyAsyn()),
            *keeping(self.with_streams, ExpandWithStreams()),
            *keeping(self.synced_scopes, ExpandSyncedScope()),
        ]
        apply_patterns(op, patterns)  # the expansions make no composite: one walk
