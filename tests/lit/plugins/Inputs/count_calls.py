"""An op-anchored pass plugin with a statistic (docs/plugins.md): `count-calls` runs on each
`func.func` and gives it the attribute `count.calls`, the number of `func.call` ops in it."""

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import IntegerAttr, i64
from xdsl.dialects.func import CallOp
from xdsl.ir import Operation

from gpuir.ir.pass_manager import OpPass, Statistic


@dataclass(frozen=True)
class CountCallsPass(OpPass):
    """Give each function the attribute `count.calls`: how many func.call ops it holds."""

    name = "count-calls"
    op_name = "func.func"

    calls = Statistic("num-calls", "Number of func.call ops counted")

    def run_on_operation(self, ctx: Context, op: Operation) -> None:
        calls = sum(isinstance(inner, CallOp) for inner in op.walk())
        op.attributes["count.calls"] = IntegerAttr(calls, i64)
        self.calls.add(calls)
