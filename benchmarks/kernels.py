"""Kernels that several benchmarks run as they are (`from kernels import SAXPY`). Their text is
in `programs/`, where the tests read the same files (`tests/kernels.py`): one copy of each."""

from __future__ import annotations

from pathlib import Path

PROGRAMS = Path(__file__).resolve().parent / "programs"


def program(name: str) -> str:
    """The text of `programs/<name>.mlir`."""
    return (PROGRAMS / f"{name}.mlir").read_text()


SAXPY = program("saxpy")
"""`@saxpy`, guarded: its arguments after the ids are `n_items`, `n`, `a`, `x`, `y`."""
SAXPY_UNGUARDED = program("saxpy-unguarded")
"""`@saxpy` that a launch covers exactly: its arguments after the ids are `n`, `a`, `x`, `y`."""
TINY = program("tiny")
"""`@tiny`: `x[item] = a`, its arguments after the ids `x`, `a`."""
