"""Errors for users, located at the op that caused them.

Passes, lowerings and runtimes raise `OpError(op, message)` for a user error; gpu-opt and
gpu-run print it as `file:line:col: error: message` (the op's location where it has one) and exit
non-zero. It is a `DiagnosticException`, so `--verify-diagnostics` prints it like xDSL's own.
"""

from __future__ import annotations

from xdsl.ir import Operation
from xdsl.utils.exceptions import DiagnosticException


class OpError(DiagnosticException):
    """A user error at `op`."""

    def __init__(self, op: Operation, message: str):
        super().__init__(message)
        self.op = op


class OpWarning(UserWarning):
    """A warning at an op (e.g. a lowering that falls back); emitted with `warnings.warn`."""

    def __init__(self, op: Operation, message: str):
        super().__init__(message)
        self.op = op
