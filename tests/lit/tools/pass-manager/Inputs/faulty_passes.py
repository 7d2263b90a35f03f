"""Passes with bugs, for the pass manager's tests: one that raises on a function named @crash,
one that fails with a diagnostic on @refuse, one that leaves IR that does not verify (it erases
the terminator of @broken)."""

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.func import FuncOp
from xdsl.ir import Operation

from gpuir.ir.diagnostics import OpError
from gpuir.ir.pass_manager import OpPass, Statistic


@dataclass(frozen=True)
class FaultyPass(OpPass):
    """A pass on each function that goes wrong (`fault`) at the one named `target`. It has no
    `name`: it is no pass of the plugin itself."""

    op_name = "func.func"
    target: ClassVar[str]

    def run_on_operation(self, ctx: Context, op: Operation) -> None:
        assert isinstance(op, FuncOp)
        self.visit(op)
        if op.sym_name.data == self.target:
            self.fault(op)

    def visit(self, op: FuncOp) -> None:
        """Each function the pass runs on, before its fault: nothing here."""

    def fault(self, op: FuncOp) -> None:
        raise NotImplementedError


@dataclass(frozen=True)
class CrashOnPass(FaultyPass):
    """Raise a Python error on a function named @crash (a bug in a pass)."""

    name = "crash-on"
    target = "crash"
    visited = Statistic("num-functions", "Number of functions visited")

    def visit(self, op: FuncOp) -> None:
        self.visited.add()

    def fault(self, op: FuncOp) -> None:
        raise RuntimeError("the pass has a bug")


@dataclass(frozen=True)
class RefusePass(FaultyPass):
    """Fail with a diagnostic at a function named @refuse (a pass's user error)."""

    name = "refuse"
    target = "refuse"

    def fault(self, op: FuncOp) -> None:
        raise OpError(op, "refuse: this function is refused")


@dataclass(frozen=True)
class BreakPass(FaultyPass):
    """Erase the terminator of a function named @broken: its result does not verify."""

    name = "break-terminator"
    target = "broken"

    def fault(self, op: FuncOp) -> None:
        last = op.body.block.last_op
        assert last is not None
        last.detach()
        last.erase()
