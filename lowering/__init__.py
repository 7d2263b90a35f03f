"""gpuir's lowerings: IR → text for other tools; `get_all_targets()` is the registry of gpu-opt's
`-t` targets.

Each entry imports its target on first use, so that gpu-opt starts fast.
"""

from collections.abc import Callable

from xdsl.utils.target import Target


def get_dot() -> type[Target]:
    from gpuir.lowering.dot import DotTarget

    return DotTarget


def get_all_targets() -> dict[str, Callable[[], type[Target]]]:
    """Our targets by `-t` name; each value imports and returns the target class."""
    return {
        "dot": get_dot,
    }
