"""gpuir's dialects: `mem`, `gpu`, `buffer` and `btensor` (each op: docs/dialects.md), and the
part of MLIR's `nvvm` that MLIR's GPU lowering writes (`nvvm.py`).

`get_all_dialects()` maps each dialect name to a factory that imports it on first use, so a
tool pays only for the dialects that the input names; `add_dialect` adds a plugin's
(`gpuir.ir.plugins`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import cache
from typing import TYPE_CHECKING

from xdsl.context import Context
from xdsl.ir import Dialect, Operation

if TYPE_CHECKING:
    from xdsl.universe import Universe


def get_mem() -> Dialect:
    from gpuir.dialects.mem import Mem

    return Mem


def get_gpu() -> Dialect:
    from gpuir.dialects.gpu import Gpu

    return Gpu


def get_buffer() -> Dialect:
    from gpuir.dialects.buffer import Buffer

    return Buffer


def get_btensor() -> Dialect:
    from gpuir.dialects.btensor import BTensor

    return BTensor


def get_nvvm() -> Dialect:
    from gpuir.dialects.nvvm import Nvvm

    return Nvvm


_added: dict[str, Dialect] = {}


def add_dialect(dialect: Dialect) -> None:
    """Make `dialect` (a plugin's) known to every context made from now on; a name that is
    taken is a ValueError."""
    if dialect.name in get_all_dialects() or dialect.name in xdsl_universe().all_dialects:
        raise ValueError(f"the dialect '{dialect.name}' exists already")
    _added[dialect.name] = dialect


def get_all_dialects() -> dict[str, Callable[[], Dialect]]:
    """Our dialects by name (and plugins'); each value imports and returns the dialect."""
    return {
        "mem": get_mem,
        "gpu": get_gpu,
        "buffer": get_buffer,
        "btensor": get_btensor,
        "nvvm": get_nvvm,
        **{name: (lambda d=d: d) for name, d in _added.items()},
    }


@cache
def xdsl_universe() -> Universe:
    """xDSL's dialects, passes, targets and frontends (and its plugins'): the universes that
    installed packages name in the `xdsl.universe` entry-point group, merged as xDSL's
    `Universe.get_multiverse` merges them (a name defined twice is a ValueError), looked up
    once per process and without `importlib.metadata` (`gpuir.dialects.entry_points`)."""
    from importlib import import_module

    from xdsl.universe import Universe

    from gpuir.dialects.entry_points import entry_points

    merged = Universe()
    for name, value in sorted(entry_points("xdsl.universe")):
        module, _, attr = value.partition(":")
        universe = getattr(import_module(module.strip()), attr.strip())
        if not isinstance(universe, Universe):
            raise ValueError(f"the entry point {value} of '{name}' is not an xDSL Universe")
        for field in ("all_dialects", "all_passes", "all_targets", "all_frontends"):
            ours, theirs = getattr(merged, field), getattr(universe, field)
            twice = sorted(ours.keys() & theirs.keys())
            if twice:
                raise ValueError(f"'{twice[0]}' is defined twice ({field}; '{name}' again)")
            ours.update(theirs)
    return merged


def make_context(
    allow_unregistered: bool = False,
    extra_ops: Mapping[str, Callable[[], Sequence[type[Operation]]]] | None = None,
) -> Context:
    """A context that knows xDSL's dialects, except its own `gpu`, and ours; each is loaded
    when the parser first meets its name. `extra_ops` adds ops to xDSL's dialects (`llvm` ops
    that xDSL lacks): dialect name → a function returning the ops, called when that dialect
    loads, so that a tool that never meets the dialect does not import them. `vector` always
    has MLIR's ops that xDSL lacks (`vector_ext`)."""
    ctx = Context(allow_unregistered=allow_unregistered)
    for name, factory in xdsl_universe().all_dialects.items():
        if name == "gpu":
            continue
        if name == "vector":
            factory = with_ops(factory, _vector_extension_ops)
        if extra_ops is not None and name in extra_ops:
            factory = with_ops(factory, extra_ops[name])
        ctx.register_dialect(name, factory)
    for name, factory in get_all_dialects().items():
        ctx.register_dialect(name, factory)
    return ctx


def _vector_extension_ops() -> Sequence[type[Operation]]:
    from gpuir.dialects.vector_ext import vector_extension_ops

    return vector_extension_ops()


def with_ops(
    factory: Callable[[], Dialect], extra: Callable[[], Sequence[type[Operation]]]
) -> Callable[[], Dialect]:
    """`factory`'s dialect plus the ops `extra()` returns (but those it has already)."""

    def load() -> Dialect:
        dialect = factory()
        known = {op.name for op in dialect.operations}
        ops = [*dialect.operations, *(op for op in extra() if op.name not in known)]
        return Dialect(dialect.name, ops, list(dialect.attributes))

    return load
