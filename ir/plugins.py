"""Plugins: passes and dialects of one's own, from a Python file or an importable module.

    gpu-opt f.mlir --load-pass-plugin=my_passes.py -p my-pass
    gpu-run f.mlir --load-pass-plugin=mypkg.passes -p 'gpu-pipeline,my-pass'
    GPUIR_PLUGINS=my_passes.py:mypkg.more gpu-opt f.mlir -p my-pass    # several (os.pathsep)
    gpuir.load_plugin("my_passes.py")                                  # the Python API

An installed package makes its plugin modules known with an entry point in the group
`gpuir.plugins` (`[project.entry-points."gpuir.plugins"] my = "mypkg.passes"` in its
`pyproject.toml`): gpu-opt, gpu-run and the API load every one of them at start, before the
plugins named on the command line.

Every `ModulePass` subclass defined at the top level of the plugin (its own classes, not the
ones it imports) is registered under its `name` in the one registry of passes
(`gpuir.ir.registry`), so that it works wherever a pass name does: gpu-opt's and gpu-run's
`-p`, `split-apply`'s sub-pipelines (`gpu-pipeline{device-pipeline="my-pass"}`), the API's
`pipeline=`. Every `Dialect` object at its top level is added to the dialects the parser
knows, and every `Target` subclass with a `name` to gpu-opt's `-t` targets. Loading a plugin twice loads it once. A plugin that cannot be imported, that defines
no pass and no dialect, or whose pass or dialect has a name that is taken, is a `PluginError`
that says so (the tools print it as a diagnostic). `docs/plugins.md` has a worked example.
"""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import os
import sys
from collections.abc import Callable
from functools import cache
from pathlib import Path
from types import ModuleType

from xdsl.ir import Dialect
from xdsl.passes import ModulePass
from xdsl.utils.target import Target

from gpuir.ir.registry import all_passes, all_targets, register_pass_group, register_target_group

PLUGINS_ENV = "GPUIR_PLUGINS"
ENTRY_POINTS = "gpuir.plugins"
"""The entry-point group of installed plugins: each entry point names a plugin module."""
_loaded: dict[str, list[str]] = {}


class PluginError(Exception):
    """A plugin that cannot be loaded, worded as the diagnostic to print."""


def load_plugin(spec: str) -> list[str]:
    """Load the plugin `spec` (a `.py` file, or a module name); the names it registered."""
    key = str(Path(spec).resolve()) if spec.endswith(".py") else spec
    if key in _loaded:
        return _loaded[key]
    module = import_plugin(spec)
    passes = {}
    dialects = []
    targets: dict[str, type[Target]] = {}
    for value in vars(module).values():
        if (
            inspect.isclass(value)
            and issubclass(value, ModulePass)
            and value.__module__ == module.__name__
            and isinstance(getattr(value, "name", None), str)
        ):
            if value.name in passes:
                raise PluginError(
                    f"plugin '{spec}' defines the pass '{value.name}' twice "
                    f"({passes[value.name].__name__} and {value.__name__})"
                )
            passes[value.name] = value
        elif isinstance(value, Dialect):
            dialects.append(value)
        elif (
            inspect.isclass(value)
            and issubclass(value, Target)
            and value.__module__ == module.__name__
            and isinstance(getattr(value, "name", None), str)
        ):
            targets[value.name] = value
    if not passes and not dialects and not targets:
        raise PluginError(
            f"plugin '{spec}' defines no pass (a ModulePass subclass), no dialect and no "
            "target (a Target subclass)"
        )
    taken_targets = all_targets()
    for name in targets:
        if name in taken_targets:
            raise PluginError(f"plugin '{spec}' defines the target '{name}', which exists already")
    taken = all_passes()
    for name in passes:
        if name in taken:
            raise PluginError(f"plugin '{spec}' defines the pass '{name}', which exists already")
    from gpuir.dialects import add_dialect

    for dialect in dialects:
        try:
            add_dialect(dialect)
        except ValueError as e:
            raise PluginError(f"plugin '{spec}': {e}") from None
    register_pass_group(
        f"plugin:{key}", lambda: {name: (lambda cls=cls: cls) for name, cls in passes.items()}
    )
    register_target_group(f"plugin:{key}", lambda: {n: factory(c) for n, c in targets.items()})
    names = [*passes, *(d.name for d in dialects), *targets]
    _loaded[key] = names
    return names


def factory(cls: type) -> Callable[[], type]:
    """A factory without parameters (xDSL calls a target's with none, a legacy one with two)."""
    return lambda: cls


def import_plugin(spec: str) -> ModuleType:
    """The plugin's module: a file imported under a name of its own, or an importable one."""
    try:
        if spec.endswith(".py"):
            path = Path(spec)
            if not path.is_file():
                raise PluginError(f"cannot load the plugin '{spec}': no such file")
            name = f"gpuir_plugin_{abs(hash(str(path.resolve())))}_{path.stem}"
            loader = importlib.util.spec_from_file_location(name, path)
            assert loader is not None and loader.loader is not None
            module = importlib.util.module_from_spec(loader)
            sys.modules[name] = module
            loader.loader.exec_module(module)
            return module
        return importlib.import_module(spec)
    except PluginError:
        raise
    except Exception as e:  # noqa: BLE001  # whatever the plugin's own code raises
        raise PluginError(
            f"cannot load the plugin '{spec}': {type(e).__name__}: {e}".rstrip()
        ) from e


@cache
def installed_plugins() -> tuple[str, ...]:
    """The modules that installed packages name in the `gpuir.plugins` entry-point group
    (read once per process, `gpuir.dialects.entry_points`: the API asks at each compile with a
    pipeline)."""
    from gpuir.dialects.entry_points import entry_points

    return tuple(sorted({value.split(":")[0].strip() for _, value in entry_points(ENTRY_POINTS)}))


def load_plugins(specs: list[str] | None = None) -> None:
    """The installed plugins (entry points), those of `$GPUIR_PLUGINS`, then `specs`."""
    from_env = [s for s in os.environ.get(PLUGINS_ENV, "").split(os.pathsep) if s]
    for spec in [*installed_plugins(), *from_env, *(specs or [])]:
        load_plugin(spec)
