"""What both command-line fronts (gpu-opt, gpu-run) share, without xdsl-opt's machinery: the
stdin name, the debug knob, how a diagnostic or a warning is reported (or kept for
`--verify-diagnostics`), the hint for a misspelt name. Light on purpose:
gpu-run imports it and not gpu-opt."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from gpuir.ir.source import ParsedChunk

STDIN = "-"
"""The input or output file name that means stdin or stdout."""
STDIN_NAME = "<stdin>"
DEBUG_ENV = "GPUIR_DEBUG"


_captured: list[list[str]] = []


@contextmanager
def capturing(into: list[str]) -> Iterator[None]:
    """Diagnostics reported in the block go into `into` instead of stderr."""
    _captured.append(into)
    try:
        yield
    finally:
        _captured.pop()


def capture_target() -> list[str] | None:
    return _captured[-1] if _captured else None


def report(message: str, error: BaseException | None = None) -> None:
    """Print a diagnostic on stderr (under GPUIR_DEBUG=1 with the traceback behind it), or
    keep it for `--verify-diagnostics` (`capturing`)."""
    target = capture_target()
    if target is not None:
        target.append(message)
        return
    print(message, file=sys.stderr)
    if error is not None and debugging():
        import traceback  # lazily, like every import only an error needs: start-up stays fast

        traceback.print_exception(error, file=sys.stderr)


def show_warning(
    prog: str, parsed: ParsedChunk, message: Warning | str, *_: object, **__: object
) -> None:
    """`warnings.showwarning` while a tool processes `parsed`: an `OpWarning` points at its
    op; any other warning is `prog: warning: …`."""
    from gpuir.ir.diagnostics import OpWarning
    from gpuir.ir.source import format_warning

    if isinstance(message, OpWarning):
        report(format_warning(message, parsed))
    else:
        report(f"{prog}: warning: {message}")


def debugging() -> bool:
    return os.environ.get(DEBUG_ENV, "") not in ("", "0")


def did_you_mean(name: str, candidates: list[str]) -> str:
    import difflib  # only on this error path

    close = difflib.get_close_matches(name, candidates, n=1)
    return f" (did you mean '{close[0]}'?)" if close else ""
