"""gpuir's passes, one per file; `get_all_passes()` is the registry gpu-opt reads."""

from collections.abc import Callable

from xdsl.passes import ModulePass


def get_all_passes() -> dict[str, Callable[[], type[ModulePass]]]:
    """Our passes by CLI name; each value imports and returns the pass class."""
    return {}
