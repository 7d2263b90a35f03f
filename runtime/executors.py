"""How a program's host code runs: `make_executor` picks the compiled host
(`gpuir.runtime.compiled_host`) or the interpreter (`gpuir.runtime.host`) for a provider."""

from __future__ import annotations

from typing import IO, TYPE_CHECKING

from xdsl.dialects.builtin import ModuleOp

from gpuir.runtime.provider import LoadedModule, Provider

if TYPE_CHECKING:
    from gpuir.runtime.host import HostExecutor


COMPILED_HOST_PROVIDERS = ("cpu", "cuda")
"""Providers whose programs run their host code as machine code by default."""


def make_executor(
    module: ModuleOp,
    provider: Provider,
    out: IO[str] | None = None,
    loaded: LoadedModule | None = None,
    *,
    compiled: bool = True,
    host: object = None,
) -> HostExecutor:
    """The executor of `module`'s host code on `provider`: compiled to machine code
    (`gpuir.runtime.compiled_host`) on the `cpu` and `cuda` providers when `compiled`, else
    this module's interpreter (`interp` always: it is the checked reference). `.compiled` says
    which. `host`: the `CompiledHost` of `module` from an earlier executor (`.program`)."""
    if compiled and provider.name in COMPILED_HOST_PROVIDERS:
        from gpuir.runtime.compiled_host import CompiledHostExecutor

        return CompiledHostExecutor(module, provider, out, loaded, host)  # type: ignore
    from gpuir.runtime.host import HostExecutor

    return HostExecutor(module, provider, out, loaded)
