"""`lower-btensor-map-reduce`: the GPU lowering of `btensor.map_reduce(_post)` (MimIR's
`gpu.lower_btensor_map_reduce`, reference §3.6).

Each op becomes, on the host:

    gpu.auto_init; gpu.buf_alloc_copy of every input and post input;
    gpu.alloc.block of the output (nested arrays of the output shape);
    gpu.launch of a new kernel, ceil(total / n_items) groups of n_items = min(total, 1024);
    buffer.alloc of a host buffer; gpu.buf_copy_to_host into it;
    gpu.free.block of every device pointer; gpu.auto_deinit

and the op's results become the final host token and the host buffer. The kernel
(`@map_reduce_kernel_<n>`, one per op) runs one work-item per output cell: `flat = group_id *
n_items + item_id`; if `flat < total` it un-flattens `flat` row-major into the output coordinates,
folds the inlined combiner from `init` over the reduction extents with a sequential `scf.for`
nest (inputs loaded with `mem.lea` + `mem.load` at `maps(coordinates ++ reduction indices)` on
the global token), applies the inlined epilogue to the post inputs loaded at
`post_maps(coordinates)`, and stores the result at `out_map(coordinates)` of the output.

Departures from MimIR:
- post inputs are read at `post_maps(output coordinates)`, the op's meaning (IR.md) and what
  `btensor-lower-map-reduce` does; MimIR's GPU lowering reads them at
  `post_maps(out_map(coordinates))`, which differs only when `out_map` is not the identity;
- a kernel is a function of its own, so the `init` value and every value the regions use from
  outside must be computable there: constants and pure ops on constants are copied into the
  kernel; anything else keeps the op on the CPU path (with a warning, like MimIR's unknown
  combiner);
- an input or post input of run-time shape (`?`) keeps the op on the CPU path (with a warning):
  its device copy would need the run-time extent, which the buffer type does not carry;
- the output shape is a static property here, so MimIR's "no lowering-time known output shape"
  fallback cannot occur.

Like MimIR, a program that contains an explicit `gpu.init` is left unchanged, with a warning
(only when it has map-reduce ops to lower); so is, with a warning, an op whose output is empty.
Those ops stay for `btensor-lower-map-reduce`.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from typing import cast

from xdsl.builder import Builder
from xdsl.context import Context
from xdsl.dialects import arith, func, scf
from xdsl.dialects.builtin import DYNAMIC_INDEX, AffineMapAttr, IndexType, ModuleOp
from xdsl.ir import Block, BlockArgument, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint
from xdsl.traits import Pure, SymbolTable

from gpuir.diagnostics import OpWarning
from gpuir.dialects import buffer, gpu, mem
from gpuir.dialects.btensor import MapReduceBase, MapReduceOp, MapReducePostOp
from gpuir.dialects.buffer import BufType
from gpuir.dialects.gpu import KERNEL_TOKENS, buffer_array_type
from gpuir.dialects.mem import GLOBAL, PtrType
from gpuir.passes.btensor_lower_map_reduce import (
    IndexConstants,
    affine_values,
    for_nest,
    inline_region,
)

MAX_ITEMS = 1024
KERNEL_PREFIX = "map_reduce_kernel_"


def device_ptr_type(buf: BufType) -> PtrType:
    return PtrType(buffer_array_type(buf), GLOBAL)


def outside_values(region: Region) -> list[SSAValue]:
    """The values that ops in `region` use but that are defined outside it, in order."""
    found: dict[SSAValue, None] = {}
    for op in region.walk():
        for operand in op.operands:
            owner = operand.owner
            defining = owner if isinstance(owner, Block) else owner.parent_block()
            if defining is None or not region.is_ancestor(defining):
                found[operand] = None
    return list(found)


def pure_definition(value: SSAValue, found: dict[Operation, None]) -> bool:
    """Collect into `found` (operands first) the pure, region-free ops that compute `value`;
    False when something on the way is not one (a block argument, a load, …)."""
    if isinstance(value, BlockArgument):
        return False
    op = value.owner
    assert isinstance(op, Operation)
    if op in found:
        return True
    if op.regions or not op.has_trait(Pure):
        return False
    if not all(pure_definition(operand, found) for operand in op.operands):
        return False
    found[op] = None
    return True


def warn(op: Operation, message: str) -> None:
    """Warn at `op`, every time (Python would show one warning per text and line)."""
    with warnings.catch_warnings(action="always"):
        warnings.warn(OpWarning(op, message), stacklevel=2)


def skip(op: Operation, reason: str) -> None:
    warn(op, f"'{op.name}' {reason}, skipping GPU lowering")


def kernel_name(op: Operation) -> tuple[Operation, str]:
    """The module the kernel goes into and a name that is free there."""
    table = op.parent_op()
    while table is not None and not table.has_trait(SymbolTable):
        table = table.parent_op()
    assert table is not None  # a ModuleOp at least
    n = 0
    while SymbolTable.lookup_symbol(table, f"{KERNEL_PREFIX}{n}") is not None:
        n += 1
    return table, f"{KERNEL_PREFIX}{n}"


def load_all(
    b: Builder,
    const: IndexConstants,
    token: SSAValue,
    ptrs: Sequence[SSAValue],
    maps: Sequence[AffineMapAttr],
    loop: list[SSAValue],
) -> tuple[SSAValue, list[SSAValue]]:
    """Load `ptrs[i][maps[i](loop)]` on the global token."""
    elements: list[SSAValue] = []
    for ptr, amap in zip(ptrs, maps, strict=True):
        for index in affine_values(b, const, amap.data, loop):
            ptr = b.insert(mem.LeaOp(ptr, index)).res
        load = b.insert(mem.LoadOp(token, ptr))
        token = load.res_mem
        elements.append(load.res)
    return token, elements


def build_kernel(
    op: MapReduceOp | MapReducePostOp,
    name: str,
    copied: Sequence[Operation],
    n_items: int,
) -> func.FuncOp:
    """The kernel: one work-item per output cell, a sequential reduction."""
    post_inputs = op.post_operands()
    out_type = cast(BufType, op.res.type)
    arg_types = [device_ptr_type(cast(BufType, b.type)) for b in (*op.inputs, *post_inputs)]
    inputs = [*KERNEL_TOKENS, IndexType(), IndexType(), *arg_types, device_ptr_type(out_type)]
    kernel = func.FuncOp(name, (inputs, KERNEL_TOKENS))
    entry = kernel.body.block
    m1, m3, m4, m5, group_id, item_id, *ptrs, out_ptr = entry.args
    in_ptrs, post_ptrs = ptrs[: len(op.inputs)], ptrs[len(op.inputs) :]
    names = ["m1", "m3", "m4", "m5", "group_id", "item_id"]
    names += [f"in{i}" for i in range(len(in_ptrs))] + [f"post{i}" for i in range(len(post_ptrs))]
    for arg, arg_name in zip(entry.args, [*names, "out"], strict=True):
        arg.name_hint = arg_name
    b = Builder(InsertPoint.at_end(entry))
    const = IndexConstants(b)
    outer: dict[SSAValue, SSAValue] = {}
    for original in copied:
        b.insert(original.clone(outer))
    init = outer.get(op.init, op.init)

    rank = op.out_rank.value.data
    out_shape, reduction_shape = op.loop_shape[:rank], op.loop_shape[rank:]
    total = 1
    for extent in out_shape:
        total *= extent
    first = b.insert(arith.MuliOp(group_id, const(n_items))).result
    flat = b.insert(arith.AddiOp(first, item_id)).result
    flat.name_hint = "flat"
    in_range = b.insert(arith.CmpiOp(flat, const(total), "ult")).result

    body = Block()
    t = Builder(InsertPoint.at_end(body))
    coords: list[SSAValue] = []
    stride = total
    for d, extent in enumerate(out_shape):  # row-major: coord_d = flat / stride_d % extent_d
        stride //= extent
        q = flat if stride == 1 else t.insert(arith.DivUIOp(flat, const(stride))).result
        coords.append(q if d == 0 else t.insert(arith.RemUIOp(q, const(extent))).result)

    def step(b: Builder, reduced: list[SSAValue], args: list[SSAValue]) -> list[SSAValue]:
        token, acc = args
        token, elements = load_all(b, const, token, in_ptrs, op.maps.data, [*coords, *reduced])
        return [token, inline_region(b, op.combiner, [acc, *elements], outer)]

    reduction_extents = [const(e) for e in reduction_shape]
    token, acc = for_nest(t, const, reduction_extents, [m1, init], step)
    if isinstance(op, MapReducePostOp):
        token, elements = load_all(t, const, token, post_ptrs, op.post_maps.data, coords)
        acc = inline_region(t, op.epilogue, [acc, *elements], outer)
    target = out_ptr
    for index in affine_values(t, const, op.out_map.data, coords):
        target = t.insert(mem.LeaOp(target, index)).res
    token = t.insert(mem.StoreOp(token, target, acc)).res_mem
    t.insert(scf.YieldOp(token))

    guarded = b.insert(scf.IfOp(in_range, [m1.type], Region(body), [scf.YieldOp(m1)]))
    b.insert(func.ReturnOp(guarded.results[0], m3, m4, m5))
    return kernel


class LowerMapReduceToGpu(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: MapReduceOp | MapReducePostOp, rewriter: PatternRewriter, /
    ) -> None:
        out_type = cast(BufType, op.res.type)
        buffers = [*op.inputs, *op.post_operands()]
        total = 1
        for extent in out_type.get_shape():
            total *= extent
        if total == 0:
            return skip(op, "has a zero-sized output")
        for value in buffers:
            if DYNAMIC_INDEX in cast(BufType, value.type).get_shape():
                return skip(op, f"reads a buffer of run-time shape ({value.type})")
        copied: dict[Operation, None] = {}
        regions = [r for r in op.regions]
        captured = [op.init, *(v for r in regions for v in outside_values(r))]
        if not all(pure_definition(value, copied) for value in captured):
            return skip(
                op,
                "doesn't have a lowering-time known combiner/epilogue (its init or regions "
                "use a value computed at run time)",
            )

        n_items = min(total, MAX_ITEMS)
        n_groups = -(-total // n_items)
        module, name = kernel_name(op)
        kernel = build_kernel(op, name, list(copied), n_items)
        anchor = op
        while anchor.parent_op() is not module:
            anchor = cast(Operation, anchor.parent_op())
        rewriter.insert(kernel, InsertPoint.before(anchor))

        const = IndexConstants(rewriter)
        session = rewriter.insert(gpu.AutoInitOp(op.mem))
        m0, m1, m4 = session.res_m0, session.res_m1, session.res_m4
        ptrs: list[SSAValue] = []
        for value in buffers:
            copy = rewriter.insert(gpu.BufAllocCopyOp(m0, m1, value))
            m0, m1 = copy.res_m0, copy.res_m1
            ptrs.append(copy.res)
        out = rewriter.insert(gpu.AllocBlockOp(m1, device_ptr_type(out_type)))
        ptrs.append(out.res)
        for ptr, host_value in zip(ptrs, [*buffers, op.res], strict=True):
            if host_value.name_hint:  # %a on the host, %a_dev on the device
                ptr.name_hint = f"{host_value.name_hint}_dev"
        stream = rewriter.insert(gpu.DefaultStreamOp()).res
        grid = const(n_groups), const(n_items)
        launch = rewriter.insert(gpu.LaunchOp(name, *grid, stream, [m0, out.res_mem, m4], ptrs))
        host = rewriter.insert(buffer.AllocOp(launch.res_m0, out_type))
        back = rewriter.insert(gpu.BufCopyToHostOp(host.res_mem, launch.res_m1, out.res, host.res))
        m1 = back.res_m1
        for ptr in ptrs:
            m1 = rewriter.insert(gpu.FreeBlockOp(m1, ptr)).res_mem
        done = rewriter.insert(gpu.AutoDeinitOp(back.res_m0, m1, launch.res_m4))
        rewriter.replace_op(op, [], [done.res_m0, host.res])


@dataclass(frozen=True)
class LowerBTensorMapReducePass(ModulePass):
    name = "lower-btensor-map-reduce"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if not any(isinstance(o, MapReduceBase) for o in op.walk()):
            return
        explicit = next((o for o in op.walk() if isinstance(o, gpu.InitOp)), None)
        if explicit is not None:
            message = (
                "not lowering any map-reduce operations to GPU: the program already contains "
                "an explicit `gpu.init`"
            )
            warn(explicit, message)
            return
        PatternRewriteWalker(
            GreedyRewritePatternApplier([LowerMapReduceToGpu()], dce_enabled=False),
            apply_recursively=False,
        ).rewrite_module(op)
