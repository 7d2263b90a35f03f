"""Kernels that several test files run or compile as they are (`from kernels import SAXPY`, as
`example_args`): a kernel that only one file uses stays in that file, next to its test. The
kernels the benchmarks run too are read from `benchmarks/programs/`, their one copy."""

from pathlib import Path

PROGRAMS = Path(__file__).resolve().parent.parent / "benchmarks" / "programs"

SAXPY = (PROGRAMS / "saxpy.mlir").read_text()
"""`y[i] = a * x[i] + y[i]` for `i = group * n_items + item`, guarded by `i < n`. Its arguments
after the ids: `n_items` (the work-items per group), `n`, `a`, `x`, `y`."""
SAXPY_UNGUARDED = (PROGRAMS / "saxpy-unguarded.mlir").read_text()
"""`y[i] = a * x[i] + y[i]` for `i = group * n + item`, unguarded: a launch covers `y` exactly.
Its arguments after the ids: `n` (the work-items per group), `a`, `x`, `y`."""
TINY = (PROGRAMS / "tiny.mlir").read_text()
"""`@tiny`: `x[item] = a`; its arguments after the ids: `x`, `a`."""
