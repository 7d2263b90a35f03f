"""gpuir.runtime: providers run compiled programs.

- `provider`: the interface every provider implements (`Provider`, `ProviderError`, `Stream`);
- `memory`: the memory model they share (layout, `Allocation`, `Pointer`);
- `scalars`: run-time values (Python ints, numpy floats), parsing and printing;
- `engine/`: the interpreter that runs host code and `interp`'s kernels (the standard
  dialects, `mem`, the token-order check, on xDSL's interpreter);
- `host`: the host executor (runs `@host`'s `main`, calls the provider);
- `interp/`: the reference provider; `cpu/` (compiled for this CPU, docs/cpu-provider.md) and
  `cuda/` (PyCUDA) the others, each in a folder of its own;
- `compiled_host`, `device_print`, `disk_cache`, `gpuir_runtime.h`: what several providers share.

The registry below maps provider names to classes, imported only when asked for. A provider
module that does not exist yet makes its name report "not available", never an ImportError.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from gpuir.runtime.provider import Provider

PROVIDERS: dict[str, str] = {
    "interp": "gpuir.runtime.interp:InterpProvider",
    "cpu": "gpuir.runtime.cpu:CpuProvider",
    "cuda": "gpuir.runtime.cuda:CudaProvider",
}
"""Provider name → `module:Class`. A new provider is one entry here and one file."""

AUTO_ORDER: tuple[str, ...] = ("cuda", "cpu", "interp")
"""What `auto` tries, in order: the first provider that is available here."""


class ProviderUnavailable(Exception):
    """The provider asked for cannot run here; the message says why."""


def provider_names() -> list[str]:
    return ["auto", *PROVIDERS]


def provider_class(name: str) -> type[Provider]:
    """The class of provider `name`; `ProviderUnavailable` when it is unknown or its module is
    missing."""
    if name not in PROVIDERS:
        known = ", ".join(provider_names())
        raise ProviderUnavailable(f"unknown provider '{name}' (known: {known})")
    module_name, class_name = PROVIDERS[name].split(":")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as e:
        if e.name != module_name:
            raise ProviderUnavailable(
                f"the {name} provider is not available: it needs the Python module '{e.name}'"
            ) from e
        raise ProviderUnavailable(
            f"the {name} provider is not available yet ({module_name} does not exist)"
        ) from e
    except ImportError as e:  # e.g. a driver library that is not installed
        raise ProviderUnavailable(f"the {name} provider is not available: {e}") from e
    return getattr(module, class_name)


def unavailable_reason(name: str) -> str | None:
    """Why provider `name` cannot run here, or None when it can."""
    try:
        cls = provider_class(name)
    except ProviderUnavailable as e:
        return str(e)
    reason = cls.unavailable_reason()
    return None if reason is None else f"the {name} provider is not available: {reason}"


def resolve(name: str) -> str:
    """The provider `name` stands for: itself, or for `auto` the first available one of
    `AUTO_ORDER`."""
    if name != "auto":
        return name
    for candidate in AUTO_ORDER:
        if unavailable_reason(candidate) is None:
            return candidate
    raise ProviderUnavailable("no provider is available")


def get_provider(name: str = "auto", **options: object) -> Provider:
    """A new, closed instance of provider `name` (`auto`: see `resolve`), made with `options`
    (`check=True` for `cpu`); `ProviderUnavailable` when it cannot run here."""
    resolved = resolve(name)
    reason = unavailable_reason(resolved)
    if reason is not None:
        raise ProviderUnavailable(reason)
    return provider_class(resolved)(**options)
