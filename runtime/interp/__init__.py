"""The `interp` provider: the reference semantics of kernels, with memory, race and barrier
checks, on the engine (`gpuir.runtime.engine`). `races` (the race check), `items` (the
work-item machine, the device `gpu` ops), `scheduler` (the group scheduler), `collectives`,
`provider` (`InterpProvider`, a launch). docs/interp.md says how a launch runs."""

from __future__ import annotations

from gpuir.runtime.interp.collectives import combine, left_scan, tree_reduce
from gpuir.runtime.interp.items import DEVICE_FUNCTIONS, GroupState, ItemMachine
from gpuir.runtime.interp.provider import (
    InterpModule,
    InterpProvider,
    KernelRun,
    interp_module,
    run_launch,
)
from gpuir.runtime.interp.races import RaceTracker

__all__ = [
    "DEVICE_FUNCTIONS",
    "GroupState",
    "InterpModule",
    "InterpProvider",
    "ItemMachine",
    "KernelRun",
    "RaceTracker",
    "combine",
    "interp_module",
    "left_scan",
    "run_launch",
    "tree_reduce",
]
