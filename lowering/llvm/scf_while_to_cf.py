"""`convert-scf-while-to-cf`: `scf.while` to branches, in device modules (and
`ExecuteRegionLowering`, which the cpu provider's resumable form uses for `scf.execute_region`).

xDSL's `convert-scf-to-cf` lowers `scf.for`, `scf.if` and `scf.index_switch` but not
`scf.while`; this pass does, as MLIR's `WhileLowering`:

    ^before(args): …; scf.condition(%c) vals   →   cf.cond_br %c, ^after(vals), ^end(vals)
    ^after(args):  …; scf.yield vals            →   cf.br ^before(vals)

with a `cf.br ^before(inits)` where the loop was and the loop's results as `^end`'s arguments.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import cf, scf
from xdsl.dialects.builtin import ModuleOp
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import BlockInsertPoint, InsertPoint

from gpuir.ir.pass_manager import Statistic
from gpuir.lowering.llvm.conversion import DeviceModulePass
from gpuir.passes.locations import KeepLocations


class WhileLowering(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: scf.WhileOp, rewriter: PatternRewriter):
        block = op.parent_block()
        region = block.parent_region() if block is not None else None
        if block is None or region is None:
            return
        end = block.split_before(op)
        result_args = [end.insert_arg(t, i) for i, t in enumerate(op.result_types)]
        before = op.before_region.block
        after = op.after_region.block

        condition = before.last_op
        assert isinstance(condition, scf.ConditionOp)
        rewriter.replace(
            condition,
            cf.ConditionalBranchOp(condition.condition, after, condition.args, end, condition.args),
        )
        step = after.last_op
        assert isinstance(step, scf.YieldOp)
        rewriter.replace(step, cf.BranchOp(before, *step.arguments))

        rewriter.inline_region(op.before_region, BlockInsertPoint.before(end))
        rewriter.inline_region(op.after_region, BlockInsertPoint.before(end))
        rewriter.insert(cf.BranchOp(before, *op.arguments), InsertPoint.at_end(block))
        rewriter.replace(op, [], result_args)


class ExecuteRegionLowering(RewritePattern):
    """`scf.execute_region` → its blocks in place, each `scf.yield` a branch to the blocks
    after it (whose arguments are its results), as MLIR's `ExecuteRegionLowering`."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: scf.ExecuteRegionOp, rewriter: PatternRewriter):
        block = op.parent_block()
        if block is None or block.parent_region() is None or not op.region.blocks:
            return
        end = block.split_before(op)
        result_args = [end.insert_arg(t, i) for i, t in enumerate(op.result_types)]
        entry = op.region.blocks[0]
        for inner in op.region.blocks:
            last = inner.last_op
            if isinstance(last, scf.YieldOp):
                rewriter.replace(last, cf.BranchOp(end, *last.arguments))
        rewriter.inline_region(op.region, BlockInsertPoint.before(end))
        rewriter.insert(cf.BranchOp(entry), InsertPoint.at_end(block))
        rewriter.replace(op, [], result_args)


@dataclass(frozen=True)
class ConvertScfWhileToCfPass(DeviceModulePass):
    """`scf.while` to a loop of blocks and branches."""

    name = "convert-scf-while-to-cf"

    lowered = Statistic("num-loops-lowered", "Number of scf.while loops lowered to blocks")

    def lower_module(self, module: ModuleOp) -> None:
        PatternRewriteWalker(KeepLocations(WhileLowering(), self.lowered)).rewrite_module(module)
