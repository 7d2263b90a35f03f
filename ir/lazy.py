"""`lazy("package.module:Name")`: a factory that imports the module when it is called and
returns its `Name`; `lazy_group(table)`: a registry group of such factories (`gpuir.ir.registry`).
The registries of passes and targets (`gpuir.passes`, `gpuir.lowering`) list theirs so, so that
gpu-opt imports a pass or a target only when it is used."""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module
from typing import Any


def lazy(path: str) -> Callable[[], Any]:
    """A factory for `Name` of `module` (`path` is `"module:Name"`), imported when called."""
    module, _, name = path.partition(":")

    def load() -> Any:
        return getattr(import_module(module), name)

    return load


def lazy_group(table: dict[str, str]) -> Callable[[], dict[str, Callable[[], Any]]]:
    """A function that returns the names of `table` (name → `"module:Name"`), each with its
    `lazy` factory."""

    def group() -> dict[str, Callable[[], Any]]:
        return {name: lazy(path) for name, path in table.items()}

    return group
