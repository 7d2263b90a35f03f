"""`remove-double-syncs`: drop work-group barriers that order nothing (MimIR's
`gpu.remove_double_syncs`).

A `gpu.sync_work_items` is redundant when both of its tokens come from the same place, and that
place is
- the preceding barrier: both are results of one `gpu.sync_work_items`, so no memory access is
  ordered between the two barriers; or
- the kernel's entry: both are arguments of a kernel's entry block, so nothing has happened yet.

The barrier's results are replaced by its operands. The rewrite repeats, so a chain of barriers
collapses to its first one, and a chain at the start of a kernel disappears.

A kernel is a function that a `gpu.launch` names or that is marked `gpu.kernel` (as kernels are
after `split-apply`). A helper function that kernels call is not a kernel: its caller may have
written shared memory just before the call, so a barrier at the helper's entry stays. Inside
`scf.for` the tokens are the loop body's arguments, which carry the previous iteration's effects:
a barrier on them stays. A barrier nested in another region whose tokens come straight from a
barrier or the kernel entry outside it is redundant like any other. Back-to-back
`gpu.synced_scope`s become double barriers only once `expand-gpu-composites` has expanded them,
which runs before this pass in the pipeline.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.func import FuncOp
from xdsl.ir import Block, Operation
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)

from gpuir.dialects.gpu import LaunchOp, SyncWorkItemsOp, lookup_kernel
from gpuir.ir.pass_manager import Counter, Statistic
from gpuir.passes.device_code import KERNEL_ATTR


def kernel_functions(root: ModuleOp) -> frozenset[Operation]:
    """The functions in `root` that a `gpu.launch` names or that are marked `gpu.kernel`."""
    found: set[Operation] = set()
    for op in root.walk():
        if isinstance(op, FuncOp) and KERNEL_ATTR in op.attributes:
            found.add(op)
        elif isinstance(op, LaunchOp) and isinstance(
            kernel := lookup_kernel(op, op.kernel), FuncOp
        ):
            found.add(kernel)
    return frozenset(found)


def is_kernel_entry(block: Block, kernels: frozenset[Operation]) -> bool:
    func = block.parent_op()
    return isinstance(func, FuncOp) and func in kernels and block is func.body.first_block


@dataclass(frozen=True)
class RemoveDoubleSync(RewritePattern):
    kernels: frozenset[Operation]
    removed: Counter

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: SyncWorkItemsOp, rewriter: PatternRewriter, /):
        source = op.m1.owner
        if source is not op.m3.owner:
            return
        if isinstance(source, SyncWorkItemsOp) or (
            isinstance(source, Block) and is_kernel_entry(source, self.kernels)
        ):
            rewriter.replace(op, [], [op.m1, op.m3])
            self.removed.add()


@dataclass(frozen=True)
class RemoveDoubleSyncsPass(ModulePass):
    """Drop each `gpu.sync_work_items` right after another one or at a kernel's entry."""

    name = "remove-double-syncs"

    removed = Statistic("num-barriers-removed", "Number of redundant barriers removed")

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        pattern = RemoveDoubleSync(kernel_functions(op), self.removed)
        PatternRewriteWalker(pattern).rewrite_module(op)
