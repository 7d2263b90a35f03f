"""The expected output of a corpus program, computed with numpy from its `// NUMPY:` lines.

Each program of this folder says in `// NUMPY:` comment lines, as Python, what it computes:
numpy code (`np`) that calls `show(array)` once per `printMemref*` call of the program, in
order. This script runs that code and prints each array as mlir-runner's `printMemrefF32` /
`printMemrefI32` would (the address aside), independently of gpuir:

    python numpy_expect.py PROGRAM.mlir | filecheck PROGRAM.mlir
        the program's CHECK lines against numpy (a RUN line of every program)
    python numpy_expect.py --update PROGRAM.mlir...
        rewrites each program's `// CHECK:` / `// CHECK-NEXT:` lines from numpy

so a program's CHECK lines hold the numbers numpy gives, and its RUN lines check both gpu-run
providers against the same lines.
"""

from __future__ import annotations

import math
import sys
from pathlib import Path

import numpy as np

PREFIX = "// NUMPY:"


def element(value: object) -> str:
    """An element as a C++ stream prints it: an integer in decimal, a float as `%g`."""
    if isinstance(value, np.floating):
        return "%g" % float(value)  # noqa: UP031  # C's %g, which format() is not for nan
    return str(int(value))  # type: ignore[call-overload]


def rows(values: np.ndarray, depth: int, rank: int) -> str:
    """printMemref's nested brackets: elements `", "` apart plus a space per dimension,
    each row after the first on a new line indented by its depth."""
    if values.ndim == 1:
        return "[" + (", " + " " * rank).join(element(v) for v in values) + "]"
    parts = [rows(row, depth + 1, rank) for row in values]
    return "[" + (", \n" + " " * (depth + 1)).join(parts) + "]"


def memref_text(values: np.ndarray) -> list[str]:
    """The lines printMemref prints for `values` (the header without its address)."""
    sizes = list(values.shape)
    strides = [math.prod(sizes[i + 1 :]) for i in range(len(sizes))]
    header = (
        f"rank = {values.ndim} offset = 0 sizes = [{', '.join(map(str, sizes))}] "
        f"strides = [{', '.join(map(str, strides))}] data ="
    )
    return [header, *rows(values, 0, values.ndim).split("\n")]


def expected(program: Path) -> list[list[str]]:
    """What the program's `// NUMPY:` code shows: each array's lines."""
    code = "\n".join(
        line.strip()[len(PREFIX) :].removeprefix(" ")
        for line in program.read_text().splitlines()
        if line.strip().startswith(PREFIX)
    )
    shown: list[list[str]] = []

    def show(values: object) -> None:
        array = np.asarray(values)
        assert array.dtype in (np.float32, np.int32), f"printMemref of {array.dtype}"
        shown.append(memref_text(array))

    exec(compile(code, f"{program} (NUMPY lines)", "exec"), {"np": np, "show": show})  # noqa: S102
    return shown


def check_lines(shown: list[list[str]]) -> list[str]:
    """FileCheck lines for the arrays: the header of each, then its rows line by line."""
    out = []
    for lines in shown:
        out.append(f"// CHECK:      {lines[0]}")
        for line in lines[1:]:
            escaped = line.rstrip().replace("[[", "{{\\[\\[}}")  # FileCheck's [[ is a variable
            out.append(f"// CHECK-NEXT: {escaped}")
    return out


def update(program: Path) -> None:
    """The program's CHECK and CHECK-NEXT lines replaced by numpy's, where the first was
    (where it has none, after a blank line after its NUMPY lines)."""
    lines = program.read_text().splitlines()
    ours = ("// CHECK:", "// CHECK-NEXT:")
    fresh = check_lines(expected(program))
    found = [i for i, line in enumerate(lines) if line.startswith(ours)]
    if found:
        at = found[0]
    else:
        at = max(i for i, line in enumerate(lines) if line.startswith(PREFIX)) + 1
        fresh = ["", *fresh]
    kept = [line for line in lines if not line.startswith(ours)]
    program.write_text("\n".join([*kept[:at], *fresh, *kept[at:]]) + "\n")


def main(argv: list[str]) -> None:
    if argv[:1] == ["--update"]:
        for name in argv[1:]:
            update(Path(name))
        return
    (name,) = argv
    for lines in expected(Path(name)):
        print("Unranked Memref base@ = 0x0 " + lines[0] + " ")
        print("\n".join(lines[1:]))


if __name__ == "__main__":
    main(sys.argv[1:])
