"""Builders of the MLIR lines that hand-written kernels repeat: a run of constants, a work-item's
global index, the load or the store of an element of a global array. Each returns lines of MLIR
(indented two spaces, each ending in a newline) and defines exactly the SSA names that its
docstring lists, most of them passed in. The benchmarks import it by name (`from ir_text import
constants`); the tests through `tests/kernels.py`, which loads this file."""

from __future__ import annotations


def constants(type_: str = "index", **values: float | str) -> str:
    """`%name = arith.constant value : type_` for each `name=value`, in their order; a string
    value names its own type (`half="0.5 : f32"`)."""
    lines = []
    for name, value in values.items():
        typed = value if isinstance(value, str) else f"{value} : {type_}"
        lines.append(f"  %{name} = arith.constant {typed}\n")
    return "".join(lines)


def item_index(n: str, index: str = "%i", group: str = "%group", item: str = "%item") -> str:
    """`index = group * n + item`: the work-item's global index where each group has `n` items
    (through `%base`, which it defines too)."""
    return (
        f"  %base = arith.muli {group}, {n} : index\n  {index} = arith.addi %base, {item} : index\n"
    )


def load(result: str, memory: str, x: str, index: str, element: str, pointer: str = "%px") -> str:
    """`result` (the token and the value, `"%a1, %v"`) loads `x[index]` from the global array `x`
    of `element`s through the address `pointer`, after the global memory's token `memory`."""
    return (
        f"  {pointer} = mem.lea {x}, {index} : !mem.ptr<!mem.array<? x {element}>, 1>\n"
        f"  {result} = mem.load {memory}, {pointer} : !mem.ptr<{element}, 1>\n"
    )


def store(
    result: str, memory: str, x: str, index: str, value: str, element: str, pointer: str = "%po"
) -> str:
    """`result` (the token after it) stores `value` at `x[index]` in the global array `x` of
    `element`s through the address `pointer`, after the global memory's token `memory`."""
    return (
        f"  {pointer} = mem.lea {x}, {index} : !mem.ptr<!mem.array<? x {element}>, 1>\n"
        f"  {result} = mem.store {memory}, {pointer}, {value} : !mem.ptr<{element}, 1>\n"
    )


def item_load(
    result: str,
    x: str,
    element: str,
    n: str = "%n",
    index: str = "%i",
    pointer: str = "%px",
    memory: str = "%m1",
) -> str:
    """`item_index(n, index)`, then `load(result, memory, x, index, element, pointer)`: the
    item's element of `x`."""
    return item_index(n, index) + load(result, memory, x, index, element, pointer)
