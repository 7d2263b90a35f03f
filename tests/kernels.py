"""Kernels that several test files run or compile as they are (`from kernels import SAXPY`, as
`example_args`): a kernel that only one file uses stays in that file, next to its test. The
kernels the benchmarks run too are read from `benchmarks/programs/`, their one copy; so are the
builders of repeated lines (`constants`, `item_index`, `load`, `store`, `item_load`), from
`benchmarks/ir_text.py`."""

import importlib.util
from pathlib import Path

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"
PROGRAMS = BENCHMARKS / "programs"


def _load_ir_text():
    """`benchmarks/ir_text.py`, loaded from its path (`benchmarks/` is not on `sys.path` here)."""
    spec = importlib.util.spec_from_file_location("ir_text", BENCHMARKS / "ir_text.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_ir_text = _load_ir_text()
constants = _ir_text.constants
item_index = _ir_text.item_index
load = _ir_text.load
store = _ir_text.store
item_load = _ir_text.item_load

SAXPY = (PROGRAMS / "saxpy.mlir").read_text()
"""`y[i] = a * x[i] + y[i]` for `i = group * n_items + item`, guarded by `i < n`. Its arguments
after the ids: `n_items` (the work-items per group), `n`, `a`, `x`, `y`."""
SAXPY_UNGUARDED = (PROGRAMS / "saxpy-unguarded.mlir").read_text()
"""`y[i] = a * x[i] + y[i]` for `i = group * n + item`, unguarded: a launch covers `y` exactly.
Its arguments after the ids: `n` (the work-items per group), `a`, `x`, `y`."""
TINY = (PROGRAMS / "tiny.mlir").read_text()
"""`@tiny`: `x[item] = a`; its arguments after the ids: `x`, `a`."""

TOKENS = "!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>"
"""The types of a kernel's memory tokens (global, shared, local, constant), as it takes and
returns them."""


def kernel(
    name: str, params: str, body: str, returns: str = "%m1, %m3, %m4, %m5", marked: bool = True
) -> str:
    """The text of the kernel `@name`: it takes its memory tokens `%m1 %m3 %m4 %m5` and then
    `params` (its ids first: `%group: index, %item: index, …`), runs `body` (lines of MLIR) and
    returns the tokens `returns`. `marked`: with the attribute `gpu.kernel`."""
    attributes = " attributes {gpu.kernel}" if marked else ""
    return (
        f"\nfunc.func @{name}(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,\n"
        f"    {params})\n"
        f"    -> ({TOKENS}){attributes} {{\n"
        f"{body.strip(chr(10))}\n"
        f"  func.return {returns} : {TOKENS}\n"
        "}\n"
    )


def if_then(
    result: str, condition: str, then: str, yields: str, otherwise: str = "%m1", space: int = 1
) -> str:
    """`result = scf.if condition` that carries one memory token (of memory space `space`):
    `then` (lines of MLIR) and it yields `yields`; else it yields `otherwise` as it is."""
    token = f"!mem.M<{space}>"
    return (
        f"  {result} = scf.if {condition} -> ({token}) {{\n"
        f"{then.strip(chr(10))}\n"
        f"    scf.yield {yields} : {token}\n"
        "  } else {\n"
        f"    scf.yield {otherwise} : {token}\n"
        "  }\n"
    )


def launching_main(grid: str, setup: str = "", launch: str = "", params: str = "") -> str:
    """`@main(%m: !mem.M<0>` then `params`): the device (`gpu.init`) and its default stream
    `%s`, `setup` (lines of MLIR), one launch of `@k` on `grid` (`launch`: what follows the
    launch's `mems(…)`, its arguments), then `gpu.deinit`."""
    return (
        f"\nfunc.func @main(%m: !mem.M<0>{params}) -> !mem.M<0> {{\n"
        "  %m0, %m1, %m4 = gpu.init %m\n"
        "  %s = gpu.default_stream\n"
        f"{setup.strip(chr(10))}\n"
        f"  %l0, %l1, %l4 = gpu.launch @k grid({grid}) stream(%s) mems(%m0, %m1, %m4){launch}\n"
        "  %e = gpu.deinit %l0, %l1, %l4\n"
        "  func.return %e : !mem.M<0>\n"
        "}\n"
    )
