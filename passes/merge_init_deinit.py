"""`merge-init-deinit`: merge back-to-back compiler-created device sessions (MimIR's
`gpu.merge_init_deinit`, reference §3.7).

A `gpu.auto_init` whose host token comes from a `gpu.auto_deinit` reopens the device that was
just closed. The pass removes both: the deinit's host token goes on to the ops after it, and the
init's device tokens become the ones the deinit consumed, so one session spans both (and the
host code between them). The token is traced back from the init through at most `MAX_HOPS` ops
of the same block that only touch the host: no `gpu` op, no call, no memory token but
`!mem.M<0>` (in nested regions either), exactly one `!mem.M<0>` operand, whose token is
followed; every token on the way has that one use, so no other op can reach the deinit.

Never merged: user sessions (`gpu.init` / `gpu.deinit`), a token that comes from a block
argument, from another block, from an op with regions that open sessions or from a call (the
callee may open one), or from further than `MAX_HOPS` ops.

Like MimIR's, the merge drops the deinit's wait for pending device work: the sessions that the
compiler creates (`lower-btensor-map-reduce`) copy results back with blocking copies, so the
host code between them never reads a device result that is still being computed.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.func import CallOp
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from gpuir.dialects.gpu import AutoDeinitOp, AutoInitOp
from gpuir.dialects.mem import HOST, MemType
from gpuir.ir.pass_manager import Statistic

MAX_HOPS = 128
"""How many host ops may lie between the deinit and the init (MimIR's limit)."""


def only_touches_host(op: Operation) -> bool:
    """No `gpu` op, no call, and no memory token but `!mem.M<0>`, in `op` or nested in it."""
    for inner in op.walk():
        if inner.name.startswith("gpu.") or isinstance(inner, CallOp):
            return False
        values = [*inner.operands, *inner.results]
        values += [arg for region in inner.regions for block in region.blocks for arg in block.args]
        if any(isinstance(v.type, MemType) and v.type.space.data != HOST for v in values):
            return False
    return True


def closing_deinit(init: AutoInitOp) -> AutoDeinitOp | None:
    """The `gpu.auto_deinit` that `init`'s host token comes from, or None (see the module)."""
    token: SSAValue = init.mem
    for _ in range(MAX_HOPS + 1):
        source = token.owner
        if not isinstance(source, Operation) or source.parent_block() is not init.parent_block():
            return None
        if not token.has_one_use():
            return None
        if isinstance(source, AutoDeinitOp):
            return source
        host_operands = [v for v in source.operands if isinstance(v.type, MemType)]
        if len(host_operands) != 1 or not only_touches_host(source):
            return None
        token = host_operands[0]
    return None


@dataclass(frozen=True)
class MergeInitDeinitPass(ModulePass):
    """Remove each `gpu.auto_deinit` … `gpu.auto_init` pair that only host code separates."""

    name = "merge-init-deinit"

    merged = Statistic(
        "num-sessions-merged", "Number of device sessions merged into the previous one"
    )

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for init in [o for o in op.walk() if isinstance(o, AutoInitOp)]:
            deinit = closing_deinit(init)
            if deinit is None:
                continue
            deinit.res_m0.replace_all_uses_with(deinit.m0)
            init.res_m0.replace_all_uses_with(init.mem)
            init.res_m1.replace_all_uses_with(deinit.m1)
            init.res_m4.replace_all_uses_with(deinit.m4)
            Rewriter.erase_op(init)
            Rewriter.erase_op(deinit)
            self.merged.add()
