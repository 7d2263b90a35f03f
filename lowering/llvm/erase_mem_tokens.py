"""`erase-mem-tokens`: remove the memory tokens (`!mem.M<a>`) from device code.

Tokens only order memory effects; once `convert-mem-to-llvm` and `convert-gpu-to-nvvm` have
lowered the ops that take and return them (each result token is then its operand token), they
carry no value and vanish: from function signatures, block arguments, `func.call` /
`func.return` and branch operands, `func.call` results, and ops that only pass tokens on
(`arith.select` of tokens, `mem.remem`). A token that any other op still uses is an error at
that op (it has not been lowered).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import arith, cf
from xdsl.dialects.builtin import ModuleOp, UnrealizedConversionCastOp
from xdsl.dialects.func import CallOp, FuncOp, ReturnOp
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from gpuir.dialects.mem import MemType, RememOp
from gpuir.ir.diagnostics import OpError
from gpuir.ir.pass_manager import Statistic
from gpuir.lowering.llvm.conversion import DeviceModulePass

TOKEN_ONLY_OPS = (RememOp, arith.SelectOp, UnrealizedConversionCastOp)
"""Ops that are dropped when all their results are unused tokens."""


def is_token(value: SSAValue | Attribute) -> bool:
    t = value.type if isinstance(value, SSAValue) else value
    return isinstance(t, MemType)


def values(vs) -> list[SSAValue]:
    return [v for v in vs if not is_token(v)]


def drop_token_operands(op: Operation) -> int:
    """Rebuild a terminator, or filter a call's operands, without token operands; how many
    it dropped (none from other ops)."""
    dropped = sum(is_token(v) for v in op.operands)
    new: Operation | None = None
    if isinstance(op, ReturnOp):
        new = ReturnOp(*values(op.arguments))
    elif isinstance(op, cf.BranchOp):
        new = cf.BranchOp(op.successor, *values(op.arguments))
    elif isinstance(op, cf.ConditionalBranchOp):
        new = cf.ConditionalBranchOp(
            op.cond,
            op.then_block,
            values(op.then_arguments),
            op.else_block,
            values(op.else_arguments),
        )
    elif isinstance(op, cf.SwitchOp):
        new = cf.SwitchOp(
            op.flag,
            op.default_block,
            values(op.default_operands),
            op.case_values,
            op.case_blocks,
            [values(operands) for operands in op.case_operand],
        )
    elif isinstance(op, CallOp):
        op.operands = values(op.operands)
        return dropped
    if new is None:
        return 0
    new.attributes |= op.attributes
    new.location = op.location
    Rewriter.replace_op(op, new)
    return dropped


def erase_tokens(function: FuncOp, counts: EraseMemTokensPass) -> None:
    ops = list(function.walk())
    for op in ops:
        if any(is_token(v) for v in op.operands):
            counts.operands.add(drop_token_operands(op))
    changed = True
    while changed:  # token-only ops whose results nobody uses any more
        changed = False
        for op in list(function.walk()):
            if (
                isinstance(op, TOKEN_ONLY_OPS)
                and op.results
                and all(is_token(r) and not r.uses for r in op.results)
            ):
                Rewriter.erase_op(op)
                counts.ops.add()
                changed = True
    for op in function.walk():
        for value in op.results:
            if is_token(value) and value.uses:
                user = next(iter(value.uses)).operation
                raise OpError(user, f"'{user.name}' still uses a memory token: it is not lowered")
    for call in [op for op in function.walk() if isinstance(op, CallOp)]:
        rebuild_call(call)
    for block in function.body.blocks:
        counts.arguments.add(erase_token_arguments(block))
    inputs = [t for t in function.function_type.inputs.data if not is_token(t)]
    outputs = [t for t in function.function_type.outputs.data if not is_token(t)]
    function.function_type = function.function_type.from_lists(inputs, outputs)


def rebuild_call(call: CallOp) -> None:
    if not any(is_token(r) for r in call.results):
        return
    kept = [r for r in call.results if not is_token(r)]
    new = CallOp(call.callee, list(call.arguments), [r.type for r in kept])
    new.attributes |= call.attributes
    new.location = call.location
    Rewriter.insert_op(new, InsertPoint.before(call))
    for old, replacement in zip(kept, new.results, strict=True):
        old.replace_all_uses_with(replacement)
    Rewriter.erase_op(call)


def erase_token_arguments(block: Block) -> int:
    """Erase the token arguments of `block`; how many there were."""
    erased = 0
    for arg in reversed(block.args):
        if not is_token(arg):
            continue
        if arg.uses:
            user = next(iter(arg.uses)).operation
            raise OpError(user, f"'{user.name}' still uses a memory token: it is not lowered")
        block.erase_arg(arg)
        erased += 1
    return erased


@dataclass(frozen=True)
class EraseMemTokensPass(DeviceModulePass):
    """Remove `!mem.M` values from device functions, their signatures and their calls."""

    name = "erase-mem-tokens"

    operands = Statistic(
        "num-token-operands-erased",
        "Number of token operands erased from calls, returns and branches",
    )
    ops = Statistic("num-token-ops-erased", "Number of ops that only passed tokens on, erased")
    arguments = Statistic("num-token-arguments-erased", "Number of token block arguments erased")

    def lower_module(self, module: ModuleOp) -> None:
        for function in module.ops:
            if isinstance(function, FuncOp):
                erase_tokens(function, self)
