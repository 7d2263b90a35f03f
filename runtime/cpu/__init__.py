"""The `cpu` provider: the device module compiled for this CPU with LLVM (llvmlite's MCJIT), the
work-groups of a launch in parallel on native threads, the work-items of a group as loops.
`compiled` (compiling and loading a device module), `provider` (`CpuProvider`: memory and
launches), `errors` (a fault or a divergence as the launch's error), `arena` (device memory),
`faults` (the fault guard), `pool` (the native threads), `check` + `check.c` (`--check`'s
checker). docs/cpu-provider.md says how it compiles, launches and checks."""

from __future__ import annotations

from gpuir.runtime.cpu.compiled import (
    CACHE_SIZE,
    MAX_ITEMS,
    CompiledKernel,
    CompiledModule,
    compile_module,
)
from gpuir.runtime.cpu.provider import (
    CHUNKS_PER_WORKER,
    INDEX_BITWIDTH_ENV,
    PARALLEL_GROUPS,
    THREADS_ENV,
    CpuProvider,
    threads,
)

__all__ = [
    "CACHE_SIZE",
    "CHUNKS_PER_WORKER",
    "INDEX_BITWIDTH_ENV",
    "MAX_ITEMS",
    "PARALLEL_GROUPS",
    "THREADS_ENV",
    "CompiledKernel",
    "CompiledModule",
    "CpuProvider",
    "compile_module",
    "threads",
]
