"""Branches: `convert-scf-while-to-cf` makes them of loops, `convert-cf-to-llvm` lowers them.

`convert-scf-while-to-cf`: `scf.while` to branches, in device modules (and
`ExecuteRegionLowering`, which the cpu provider's resumable form uses for
`scf.execute_region`). xDSL's `convert-scf-to-cf` lowers `scf.for`, `scf.if` and
`scf.index_switch` but not `scf.while`; this pass does, as MLIR's `WhileLowering`:

    ^before(args): …; scf.condition(%c) vals   →   cf.cond_br %c, ^after(vals), ^end(vals)
    ^after(args):  …; scf.yield vals            →   cf.br ^before(vals)

with a `cf.br ^before(inits)` where the loop was and the loop's results as `^end`'s arguments.

`convert-cf-to-llvm`: `cf` branches of device code to `llvm.br` / `llvm.cond_br`.

The arguments of every non-entry block take their llvm types (`index` → `i64` or `i32`, …; a cast back
serves the users that are not converted yet). `cf.switch` becomes a chain of `llvm.icmp eq` and
`llvm.cond_br` (xDSL's llvm dialect has no `llvm.switch`; LLVM turns the chain back into a
switch where that pays). `cf.assert` is not lowered.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.builder import Builder
from xdsl.dialects import cf, llvm, scf
from xdsl.dialects.builtin import (
    IntegerAttr,
    IntegerType,
    ModuleOp,
    UnrealizedConversionCastOp,
    i64,
)
from xdsl.ir import Block, Operation
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import BlockInsertPoint, InsertPoint, Rewriter

from gpuir.ir.diagnostics import OpError
from gpuir.ir.pass_manager import Statistic
from gpuir.lowering.llvm.conversion import (
    DeviceModulePass,
    all_to_llvm,
    constant,
    index_type,
    llvm_type,
    to_llvm,
)
from gpuir.passes.locations import KeepLocations, rewrite_once


def convert_block_arguments(block: Block, index: IntegerType) -> None:
    """Give the block's arguments their llvm types (`index` → `index`); cast back for their
    current users."""
    b = Builder(InsertPoint.at_start(block))
    for arg in block.args:
        new_type = llvm_type(arg.type, index)
        if new_type is None:
            user = block.first_op or block.parent_op()
            assert user is not None
            raise OpError(user, f"a block argument of type {arg.type} has no LLVM equivalent")
        if new_type == arg.type:
            continue
        old_type = arg.type
        new_arg = Rewriter.replace_value_with_new_type(arg, new_type)
        cast = b.insert(UnrealizedConversionCastOp.get([new_arg], [old_type]))
        new_arg.replace_uses_with_if(cast.results[0], lambda use, c=cast: use.operation is not c)


class BranchLowering(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: cf.BranchOp, rewriter: PatternRewriter):
        args = all_to_llvm(rewriter, op.arguments, op)
        rewriter.replace(op, llvm.BrOp(op.successor, *args))


class CondBranchLowering(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: cf.ConditionalBranchOp, rewriter: PatternRewriter):
        then_args = all_to_llvm(rewriter, op.then_arguments, op)
        else_args = all_to_llvm(rewriter, op.else_arguments, op)
        rewriter.replace(
            op, llvm.CondBrOp(op.cond, op.then_block, then_args, op.else_block, else_args)
        )


class SwitchLowering(RewritePattern):
    """`cf.switch` as a chain of compares, one block per case after the first."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: cf.SwitchOp, rewriter: PatternRewriter):
        flag = to_llvm(rewriter, op.flag, op)
        default_args = all_to_llvm(rewriter, op.default_operands, op)
        values = op.case_values.get_values() if op.case_values is not None else ()
        cases = [
            (value, block, all_to_llvm(rewriter, operands, op))
            for value, block, operands in zip(values, op.case_blocks, op.case_operand, strict=True)
        ]
        if not cases:
            rewriter.replace(op, llvm.BrOp(op.default_block, *default_args))
            return
        current = op.parent_block()
        assert current is not None
        b = Builder(InsertPoint.before(op))
        new_ops: list[Operation] = []
        for i, (value, dest, args) in enumerate(cases):
            last = i == len(cases) - 1
            if last:
                other, other_args = op.default_block, default_args
            else:
                other, other_args = Block(), []
                Rewriter.insert_block(other, BlockInsertPoint.after(current))
            equal = b.insert(
                llvm.ICmpOp(flag, constant(b, value, flag.type), IntegerAttr(0, i64))
            ).res
            branch = llvm.CondBrOp(equal, dest, args, other, other_args)
            if i == 0:
                new_ops.append(branch)
            else:
                b.insert(branch)
            current = other
            b = Builder(InsertPoint.at_end(other))
        rewriter.replace(op, new_ops)


class AssertRejection(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: cf.AssertOp, rewriter: PatternRewriter):
        raise OpError(op, f"'{op.name}' is not lowered for the device")


@dataclass(frozen=True)
class ConvertCfToLlvmPass(DeviceModulePass):
    """`cf` branches to `llvm` branches; block arguments to llvm types."""

    name = "convert-cf-to-llvm"

    lowered = Statistic("num-branches-lowered", "Number of cf branches lowered to llvm branches")

    def lower_module(self, module: ModuleOp) -> None:
        index = index_type(module)
        for inner in module.walk():
            for region in inner.regions:
                for block in list(region.blocks)[1:]:
                    convert_block_arguments(block, index)
        patterns = [BranchLowering(), CondBranchLowering(), SwitchLowering(), AssertRejection()]
        rewrite_once(module, patterns, self.lowered)


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
