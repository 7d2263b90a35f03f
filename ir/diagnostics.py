"""Errors for users, located at the op that caused them.

Passes, lowerings and runtimes raise `OpError(op, message)` for a user error; gpu-opt and
gpu-run print it as `file:line:col: error: message` (the op's location where it has one) and exit
non-zero. It is a `DiagnosticException`, so `--verify-diagnostics` prints it like xDSL's own.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import FileLineColLoc
from xdsl.ir import Operation
from xdsl.utils.exceptions import DiagnosticException

Related = Sequence[tuple[Operation, str]]
"""Notes at other ops: `(op, note)` pairs, printed after the diagnostic at each op."""


class OpError(DiagnosticException):
    """A user error at `op`, with a note at each op of `related`."""

    def __init__(self, op: Operation, message: str, related: Related = ()):
        super().__init__(message)
        self.op = op
        self.related = list(related)


class OpWarning(UserWarning):
    """A warning at an op (e.g. a lowering that falls back), with a note at each op of
    `related`; emitted with `warnings.warn`."""

    def __init__(self, op: Operation, message: str, related: Related = ()):
        super().__init__(message)
        self.op = op
        self.related = list(related)


def describe_op(op: Operation | None) -> str:
    """`'mem.store' at file:line:col` (or without the location when the op has none)."""
    if op is None:
        return "(unknown op)"
    return f"'{op.name}'{where(op)}"


def where(op: Operation) -> str:
    """` at file:line:col`, the op's location (empty when it has none)."""
    loc = op.location
    if isinstance(loc, FileLineColLoc):
        return f" at {loc.filename.data}:{loc.line.data}:{loc.column.data}"
    return ""


def item_ranges(numbers: Sequence[int]) -> str:
    """Work-item numbers as `0-3, 5, 7-8`."""
    parts: list[str] = []
    start = prev = None
    for n in numbers:
        if start is None:
            start = prev = n
        elif n == prev + 1:
            prev = n
        else:
            parts.append(str(start) if start == prev else f"{start}-{prev}")
            start = prev = n
    if start is not None:
        parts.append(str(start) if start == prev else f"{start}-{prev}")
    return ", ".join(parts)
