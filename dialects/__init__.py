"""gpuir's dialects: `mem`, `gpu`, `buffer` and `btensor` (see ../shared/IR.md).

`get_all_dialects()` maps each dialect name to a factory that imports it on first use, so a
tool pays only for the dialects that the input names.
"""

from collections.abc import Callable

from xdsl.context import Context
from xdsl.ir import Dialect


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


def get_all_dialects() -> dict[str, Callable[[], Dialect]]:
    """Our dialects by name; each value imports and returns the dialect."""
    return {
        "mem": get_mem,
        "gpu": get_gpu,
        "buffer": get_buffer,
        "btensor": get_btensor,
    }


def make_context(allow_unregistered: bool = False) -> Context:
    """A context that knows xDSL's dialects, except its own `gpu`, and ours; each is loaded
    when the parser first meets its name."""
    from xdsl.universe import Universe

    ctx = Context(allow_unregistered=allow_unregistered)
    for name, factory in Universe.get_multiverse().all_dialects.items():
        if name != "gpu":
            ctx.register_dialect(name, factory)
    for name, factory in get_all_dialects().items():
        ctx.register_dialect(name, factory)
    return ctx
