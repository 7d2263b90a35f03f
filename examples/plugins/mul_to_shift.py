"""A plugin pass for docs/debugging-passes.md: `mul-to-shift` rewrites a multiplication by a
constant power of two into a left shift. It has a bug on purpose: a multiplication by zero
makes it raise (`math.log2(0)`), which the walk-through finds with a crash reproducer."""

import math
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import IntegerAttr
from xdsl.ir import Operation

from gpuir.ir.pass_manager import OpPass, Statistic


@dataclass(frozen=True)
class MulToShiftPass(OpPass):
    """Rewrite `arith.muli %x, C` (C a constant power of two) into `arith.shli %x, log2(C)`."""

    name = "mul-to-shift"
    op_name = "func.func"

    rewritten = Statistic("num-muls-rewritten", "Number of multiplications made shifts")

    def run_on_operation(self, ctx: Context, op: Operation) -> None:
        for mul in [inner for inner in op.walk() if isinstance(inner, arith.MuliOp)]:
            constant = mul.rhs.owner
            if not isinstance(constant, arith.ConstantOp):
                continue
            value = constant.value
            assert isinstance(value, IntegerAttr)
            shift = int(math.log2(value.value.data))  # the bug: log2(0) raises
            if 1 << shift != value.value.data:
                continue
            amount = arith.ConstantOp(IntegerAttr(shift, value.type))
            shl = arith.ShLIOp(mul.lhs, amount.result)
            mul.parent_block().insert_ops_before([amount, shl], mul)
            mul.result.replace_all_uses_with(shl.result)
            mul.detach()
            mul.erase()
            self.rewritten.add()
