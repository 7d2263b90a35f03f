"""Passes with bugs, for the pass manager's tests: one that raises on a function named @crash,
one that fails with a diagnostic on @refuse, one that leaves IR that does not verify (it erases
the terminator of @broken)."""

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.func import FuncOp
from xdsl.ir import Operation

from gpuir.ir.diagnostics import OpError
from gpuir.ir.pass_manager import OpPass, Statistic


@dataclass(frozen=True)
class CrashOnPass(OpPass):
    """Raise a Python error on a function named @crash (a bug in a pass)."""

    name = "crash-on"
    op_name = "func.func"

    visited = Statistic("num-functions", "Number of functions visited")

    def run_on_operation(self, ctx: Context, op: Operation) -> None:
        assert isinstance(op, FuncOp)
        self.visited.add()
        if op.sym_name.data == "crash":
            raise RuntimeError("the pass has a bug")


@dataclass(frozen=True)
class RefusePass(OpPass):
    """Fail with a diagnostic at a function named @refuse (a pass's user error)."""

    name = "refuse"
    op_name = "func.func"

    def run_on_operation(self, ctx: Context, op: Operation) -> None:
        assert isinstance(op, FuncOp)
        if op.sym_name.data == "refuse":
            raise OpError(op, "refuse: this function is refused")


@dataclass(frozen=True)
class BreakPass(OpPass):
    """Erase the terminator of a function named @broken: its result does not verify."""

    name = "break-terminator"
    op_name = "func.func"

    def run_on_operation(self, ctx: Context, op: Operation) -> None:
        assert isinstance(op, FuncOp)
        if op.sym_name.data == "broken":
            last = op.body.block.last_op
            assert last is not None
            last.detach()
            last.erase()
