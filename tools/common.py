"""What both command-line fronts (gpu-opt, gpu-run) share, without xdsl-opt's machinery: the
stdin name, the debug knob, how a diagnostic or a warning is reported (or kept for
`--verify-diagnostics`), the hint for a misspelt name, the `--upstream-pass` flag. Light on
purpose: gpu-run imports it and not gpu-opt."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Iterator
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


def exit_status(
    prog: str,
    run: Callable[[], int],
    where: Callable[[], str] = str,
    notes: Callable[[], list[str]] = list,
) -> int:
    """`run()`'s exit status, ended the way every tool ends: argparse's exits (`--help` 0, a
    usage error it printed 1), Ctrl-C 130, stdout closed early (`tool x.mlir | head`) quietly,
    and any other exception one line, `prog: internal error{where()}: …` with `notes()` and a
    hint at GPUIR_DEBUG (raised as it is under GPUIR_DEBUG=1); `NotImplementedError` is
    `prog: error{where()}: not supported: …`. `run` reports its own errors and returns 1."""
    try:
        return run()
    except SystemExit as e:
        return 0 if e.code in (0, None) else 1
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except Exception as e:
        if debugging():
            raise
        first_line = (str(e).strip().splitlines() or [""])[0]
        if isinstance(e, NotImplementedError):  # e.g. `-t llvm` on ops it cannot convert
            report(f"{prog}: error{where()}: not supported: {first_line}", e)
            return 1
        report(f"{prog}: internal error{where()}: {type(e).__name__}: {first_line}")
        for note in notes():
            report(f"{prog}: note: {note}")
        report(f"{prog}: note: set {DEBUG_ENV}=1 to see the Python traceback")
    return 1


def debugging() -> bool:
    return os.environ.get(DEBUG_ENV, "") not in ("", "0")


def did_you_mean(name: str, candidates: list[str]) -> str:
    import difflib  # only on this error path

    close = difflib.get_close_matches(name, candidates, n=1)
    return f" (did you mean '{close[0]}'?)" if close else ""


def add_upstream_pass(parser: argparse.ArgumentParser) -> None:
    """`--upstream-pass=PASS` (repeatable, into `upstream_passes`): an upstream MLIR pass to run
    on the input before the import (`gpuir.ir.upstream.PASSES`)."""
    from gpuir.ir.upstream import PASSES  # light: the import itself waits for a pass's use

    parser.add_argument(
        "--upstream-pass",
        action="append",
        default=[],
        choices=sorted(PASSES),
        metavar="PASS",
        dest="upstream_passes",
        help="run this upstream MLIR pass on the input (upstream MLIR) before importing it, as "
        f"mlir-opt would (repeatable, in order; one of {', '.join(sorted(PASSES))})",
    )
