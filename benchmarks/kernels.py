"""Kernels that several benchmarks run as they are (`from kernels import SAXPY`). Their text is
in `programs/`, where the tests read the same files (`tests/kernels.py`): one copy of each."""

from __future__ import annotations

from pathlib import Path

from ir_text import constants, item_index

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

TOKENS = "!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>"
"""The types of a kernel's memory tokens (global, shared, local, constant)."""


def group_sum(name: str, reduce: str, total: str, global_token: str, shared_token: str) -> str:
    """The kernel `@name(n_items, per_item, x, sums)`: each group sums `n_items * per_item`
    values of `x` into `sums[group]`. Each item adds `per_item` values, `n_items` apart (the
    GPU's coalesced pattern), into `%own` (its global token then `%a1`); `reduce` (lines of
    MLIR, which may use `%c0`, `%c1` and `%zero`) sums the items' `%own` into `total`, leaving
    the tokens `global_token` and `shared_token`; item 0 stores `total` to `sums[group]`."""
    return f"""
func.func @{name}(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
    %group: index, %item: index, %n_items: index, %per_item: index,
    %x: !mem.ptr<!mem.array<? x f32>, 1>, %sums: !mem.ptr<!mem.array<? x f32>, 1>)
    -> ({TOKENS}) attributes {{gpu.kernel}} {{
{constants(c0=0, c1=1, zero="0.0 : f32")}
  %chunk = arith.muli %n_items, %per_item : index
{item_index("%chunk", index="%start")}
  %a1, %own = scf.for %k = %c0 to %per_item step %c1 iter_args(%t1 = %m1, %s = %zero)
      -> (!mem.M<1>, f32) {{
    %step = arith.muli %k, %n_items : index
    %i = arith.addi %start, %step : index
    %p = mem.lea %x, %i : !mem.ptr<!mem.array<? x f32>, 1>
    %u1, %v = mem.load %t1, %p : !mem.ptr<f32, 1>
    %s2 = arith.addf %s, %v : f32
    scf.yield %u1, %s2 : !mem.M<1>, f32
  }}
{reduce.strip(chr(10))}
  %is0 = arith.cmpi eq, %item, %c0 : index
  %h1 = scf.if %is0 -> (!mem.M<1>) {{
    %po = mem.lea %sums, %group : !mem.ptr<!mem.array<? x f32>, 1>
    %t1 = mem.store {global_token}, %po, {total} : !mem.ptr<f32, 1>
    scf.yield %t1 : !mem.M<1>
  }} else {{
    scf.yield {global_token} : !mem.M<1>
  }}
  func.return %h1, {shared_token}, %m4, %m5 : {TOKENS}
}}
"""
