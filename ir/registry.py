"""The one registry of passes and targets: every place that turns a pass name into a pass reads
it —
gpu-opt's and gpu-run's `-p`, `split-apply`'s sub-pipelines (and so `gpu-pipeline`'s options),
the Python API's `pipeline=`, the lowering's lists of stages.

A layer adds its group when it is imported (`gpuir.passes` its passes, `gpuir.lowering` the
lowering passes), a plugin likewise (`register_pass_group`); each group is a function that
returns `name → factory` (the factory imports and returns the pass class, so that nothing is
imported before it is used). xDSL's own passes come first, gpuir's groups after them (a name in
both is gpuir's); passes that other packages add to xDSL through its entry points are looked
up only when a name is not found otherwise (reading every package's metadata takes time).

Targets (gpu-opt's `-t`) register the same way (`register_target_group`, `all_targets`):
xDSL's first, then gpuir's (`gpuir.lowering`: `llvm`, `ptx`, `host-llvm`, `mlir-gpu`; gpu-opt's
`dot`) and the plugins'.

This module imports nothing of gpuir's but the dialects' look-up of xDSL's universe: the layers
above it register into it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from xdsl.passes import ModulePass

PassFactory = Callable[[], type[ModulePass]]
PassGroup = Callable[[], dict[str, PassFactory]]

_groups: dict[str, PassGroup] = {}


def register_pass_group(name: str, group: PassGroup) -> None:
    """Add (or replace) the group of passes called `name`."""
    _groups[name] = group


def pass_groups() -> list[str]:
    return list(_groups)


def group_passes(name: str) -> dict[str, PassFactory]:
    """The passes of the group called `name`."""
    return _groups[name]()


def all_passes(names: Iterable[str] = ()) -> dict[str, PassFactory]:
    """Every registered pass by name; when one of `names` is not among them, also the passes
    of xDSL's plugins (entry points)."""
    from xdsl.transforms import get_all_passes as xdsl_passes

    found: dict[str, PassFactory] = dict(xdsl_passes())
    for group in _groups.values():
        found |= group()
    if any(name not in found for name in names):
        from xdsl.universe import Universe

        found = dict(Universe.get_multiverse().all_passes) | found
    return found


class PassTable(dict[str, PassFactory]):
    """Every registered pass by name (`all_passes()`); a name it lacks is looked up once more
    among the passes of xDSL's plugins (entry points)."""

    searched = False

    def __missing__(self, name: str) -> PassFactory:
        if not self.searched:
            self.searched = True
            from xdsl.universe import Universe

            for key, factory in Universe.get_multiverse().all_passes.items():
                self.setdefault(key, factory)
            if dict.__contains__(self, name):
                return dict.__getitem__(self, name)
        raise KeyError(name)

    def get(self, name: str, default: PassFactory | None = None) -> PassFactory | None:  # type: ignore[override]
        try:
            return self[name]
        except KeyError:
            return default


def pass_table() -> PassTable:
    return PassTable(all_passes())


TargetGroup = Callable[[], dict[str, Callable[[], type]]]
_target_groups: dict[str, TargetGroup] = {}


def register_target_group(name: str, group: TargetGroup) -> None:
    """Add (or replace) the group of targets called `name` (`-t` name → factory)."""
    _target_groups[name] = group


def all_targets() -> dict[str, Callable[[], type]]:
    """Every registered target by `-t` name: xDSL's `mlir`, then the groups' (a name in both is
    the group's). xDSL's other targets (`x86-asm`, `wgsl`, …) print xDSL's own dialects, not a
    gpuir program, so they are not offered."""
    from gpuir.dialects import xdsl_universe

    found: dict[str, Callable[[], type]] = {"mlir": xdsl_universe().all_targets["mlir"]}
    for group in _target_groups.values():
        found |= group()
    return found
