"""gpu-opt against xdsl-opt: start-up, and parse + verify + print of a large program.

Both tools run as subprocesses on the same file, interleaved (ours, theirs, ours, ...), so that
machine noise hits both alike. The program uses standard dialects only (`func`, `arith`, `scf`),
which both tools know. Each measure reports the best and the median of the repeats, and the
ratio ours / xdsl-opt; the goal is a ratio of at most 1.0. Nothing is asserted.

    python benchmarks/parse_print.py             # 10,000 ops, 5 repeats
    python benchmarks/parse_print.py --quick     # 2,000 ops, 3 repeats
    python benchmarks/parse_print.py --ops 50000
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

EMPTY_MODULE = "builtin.module {\n}\n"  # xdsl-opt rejects a file without any op


def function(index: int, body_ops: int) -> tuple[str, int]:
    """One `func.func` with a chain of arith ops and an `scf.for` that accumulates; the text
    and its number of ops (the function, its body and the ops inside the loop)."""
    lines = [
        f"func.func @f{index}(%a: i32, %b: i32, %n: index) -> i32 {{",
        "  %c0 = arith.constant 0 : index",
        "  %c1 = arith.constant 1 : index",
    ]
    previous = "%a"
    for i in range(body_ops):
        op = ("arith.addi", "arith.muli", "arith.subi", "arith.xori")[i % 4]
        lines.append(f"  %v{i} = {op} {previous}, %b : i32")
        previous = f"%v{i}"
    lines += [
        f"  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = {previous}) -> (i32) {{",
        "    %t = arith.addi %acc, %b : i32",
        "    %u = arith.muli %t, %a : i32",
        "    scf.yield %u : i32",
        "  }",
        "  func.return %r : i32",
        "}",
    ]
    ops = 1 + 2 + body_ops + 1 + 3 + 1  # func, constants, chain, for, its body, return
    return "\n".join(lines) + "\n", ops


def program(target_ops: int) -> tuple[str, int]:
    """Functions of about 40 ops each until there are at least `target_ops` ops."""
    parts: list[str] = []
    total = 0
    while total < target_ops:
        text, ops = function(len(parts), body_ops=32)
        parts.append(text)
        total += ops
    return "".join(parts), total


def tool(name: str) -> str:
    """The tool installed next to this Python (the virtualenv's), else the one on PATH."""
    beside = Path(sys.executable).with_name(name)
    found = str(beside) if beside.exists() else shutil.which(name)
    if found is None:
        sys.exit(f"parse_print.py: error: `{name}` is not installed")
    return found


def time_once(command: list[str]) -> float:
    start = time.perf_counter()
    result = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    elapsed = time.perf_counter() - start
    if result.returncode != 0:
        sys.exit(f"parse_print.py: error: {' '.join(command)} failed:\n{result.stderr.decode()}")
    return elapsed


def compare(ours: list[str], theirs: list[str], repeats: int) -> tuple[list[float], list[float]]:
    """Run both commands `repeats` times, alternating; their times in seconds."""
    ours_times: list[float] = []
    their_times: list[float] = []
    for _ in range(repeats):
        ours_times.append(time_once(ours))
        their_times.append(time_once(theirs))
    return ours_times, their_times


def rows(measure: str, ours: list[float], theirs: list[float]) -> list[tuple[str, float, float]]:
    return [
        (f"{measure}, best", min(ours), min(theirs)),
        (f"{measure}, median", statistics.median(ours), statistics.median(theirs)),
    ]


def print_table(table: list[tuple[str, float, float]]) -> None:
    header = ("measure", "ours (s)", "xdsl-opt (s)", "ratio", "goal")
    lines = [header] + [
        (measure, f"{a:.3f}", f"{b:.3f}", f"{a / b:.2f}", "<= 1.0") for measure, a, b in table
    ]
    widths = [max(len(line[i]) for line in lines) for i in range(len(header))]
    for n, line in enumerate(lines):
        print("  ".join(cell.ljust(width) for cell, width in zip(line, widths, strict=True)))
        if n == 0:
            print("  ".join("-" * width for width in widths))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="2,000 ops and 3 repeats")
    parser.add_argument("--ops", type=int, help="ops in the program (default 10,000)")
    parser.add_argument("--repeats", type=int, help="runs of each tool per measure (default 5)")
    args = parser.parse_args()
    ops = args.ops or (2_000 if args.quick else 10_000)
    repeats = args.repeats or (3 if args.quick else 5)
    gpu_opt, xdsl_opt = tool("gpu-opt"), tool("xdsl-opt")

    with tempfile.TemporaryDirectory() as folder:
        empty = Path(folder, "empty.mlir")
        empty.write_text(EMPTY_MODULE)
        big = Path(folder, "program.mlir")
        text, actual_ops = program(ops)
        big.write_text(text)

        print(f"program: {actual_ops} ops in {text.count(chr(10))} lines; {repeats} repeats\n")
        table = rows(
            "start-up (empty module)",
            *compare([gpu_opt, str(empty)], [xdsl_opt, str(empty)], repeats),
        )
        table += rows(
            f"parse+verify+print ({actual_ops} ops)",
            *compare([gpu_opt, str(big)], [xdsl_opt, str(big)], repeats),
        )
    print_table(table)


if __name__ == "__main__":
    main()
