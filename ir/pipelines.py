"""Every pipeline of gpuir as one list of named stages, defined here once: what gpu-opt,
gpu-run, the API, the targets, the cpu provider and the docs (`docs/pipelines.md`, written from
this module by `scripts/pipeline_reference.py`) run and show. A stage is a pass by its CLI name
in the one registry (`gpuir.ir.registry`), with what it does.

- `GPU_PIPELINE`: the program's pipeline (`gpu-pipeline`; gpu-run and `gpuir.compile` run it),
  ending in `split-apply` with its two sub-pipelines (`SPLIT_HOST`, `SPLIT_DEVICE`);
- `DEVICE_TO_LLVM`: a device module to the llvm dialect for NVPTX (`device-to-llvm`; the
  `llvm` and `ptx` targets continue with LLVM IR, libdevice, the optimizer and PTX);
- `CPU_DEVICE`: a device module for the cpu provider: `cpu-workgroup-loops`, then
  `DEVICE_TO_LLVM` without the stages that only NVPTX needs (`CPU_SKIPS`);
- `HOST_TO_LLVM`: the host module to the llvm dialect (`host-to-llvm`; the compiled host).
"""

from __future__ import annotations

Stage = tuple[str, str]
"""A pass's CLI name and what it does."""

GPU_PIPELINE_STAGES: tuple[Stage, ...] = (
    ("fuse-map-reduce", "a chain of elementwise maps → one map-reduce, bit for bit the same"),
    ("lower-btensor-map-reduce", "btensor.map_reduce(_post) → a kernel launch, when it can"),
    ("merge-init-deinit", "back-to-back compiler-created sessions → one"),
    ("btensor-lower-map-reduce", "the rest → loops over buffers (the CPU path)"),
    ("expand-gpu-composites", "alloc_copy, with_streams, synced_scope → their definitions"),
    ("mem-checks", "no token across the device boundary, none in main's signature"),
    ("buffer-lower-ptr", "!buffer.buf → pointers to nested arrays"),
    ("check-addr-spaces", "no heap, slot or store op where its address space lacks it"),
    ("check-tokens", "no conflicting memory effects that a forked token chain leaves unordered"),
    ("check-barrier-divergence", "no barrier that a group's work-items provably part at"),
    ("split-apply", "@host and @device, then a sub-pipeline on each"),
)

SPLIT_HOST = "host-malloc-to-gpualloc"
"""`split-apply`'s default host sub-pipeline: host allocations in space 1 → device ones."""
SPLIT_DEVICE = "remove-double-syncs"
"""`split-apply`'s default device sub-pipeline: drop redundant barriers."""

DEVICE_TO_LLVM_STAGES: tuple[Stage, ...] = (
    ("expand-gpu-composites", "gpu.synced_scope → barriers around its region"),
    ("convert-scf-while-to-cf", "scf.while → blocks and branches"),
    ("convert-scf-to-cf", "scf.for, scf.if, scf.index_switch → blocks and branches (xDSL)"),
    ("convert-gpu-to-nvvm", "kernel ids, smem, barriers, warp ops, fences from NVVM"),
    ("convert-device-printf-to-llvm", "printf → records in the print buffer"),
    ("convert-mem-to-llvm", "mem ops → loads, stores, atomics, GEPs, globals, allocas, malloc"),
    ("erase-mem-tokens", "!mem.M values vanish"),
    ("convert-vector-to-llvm", "vector ops → LLVM vectors, shuffles, intrinsics"),
    ("convert-arith-to-llvm", "arith → llvm (index is i64, or i32: gpu.index_bitwidth)"),
    ("convert-math-to-llvm", "math → intrinsics and libdevice calls"),
    ("convert-cf-to-llvm", "cf → llvm branches"),
    ("convert-func-to-llvm", "func → llvm.func (kernels marked nvvm.kernel)"),
    ("reconcile-unrealized-casts", "the casts between stages cancel out (xDSL)"),
)

CPU_FIRST: Stage = (
    "cpu-workgroup-loops",
    "kernels → work-group functions: work-item loops, or the resumable form",
)
CPU_SKIPS = frozenset({"expand-gpu-composites", "convert-gpu-to-nvvm"})
"""`DEVICE_TO_LLVM`'s stages that the cpu path does not run: `cpu-workgroup-loops` expands the
composites itself and leaves no NVVM op (ids come from the loops, barriers are gone)."""
CPU_DEVICE_STAGES: tuple[Stage, ...] = (
    CPU_FIRST,
    *(stage for stage in DEVICE_TO_LLVM_STAGES if stage[0] not in CPU_SKIPS),
)

HOST_TO_LLVM_STAGES: tuple[Stage, ...] = (
    ("expand-gpu-composites", "alloc_copy, with_streams → their definitions"),
    ("buffer-lower-ptr", "buffers → pointers and loops (when the pipeline left them)"),
    ("convert-scf-while-to-cf", "scf.while → blocks and branches"),
    ("convert-scf-to-cf", "scf.for, scf.if, scf.index_switch → blocks and branches (xDSL)"),
    ("convert-gpu-host-to-llvm", "gpu ops, host heap → runtime calls (op ids)"),
    ("convert-printf-to-llvm", "printf → the runtime's print calls"),
    ("convert-mem-to-llvm", "loads, stores, atomics, GEPs, slots (allocas)"),
    ("erase-mem-tokens", "!mem.M values vanish"),
    ("convert-vector-to-llvm", "vector ops → LLVM vectors, shuffles, intrinsics"),
    ("convert-arith-to-llvm", "arith → llvm"),
    ("convert-math-to-llvm", "libdevice names, which the host translation maps to libm"),
    ("convert-cf-to-llvm", "cf → llvm branches"),
    ("convert-func-to-llvm", "func → llvm.func"),
    ("reconcile-unrealized-casts", "the casts between stages cancel out (xDSL)"),
)


def names(stages: tuple[Stage, ...]) -> tuple[str, ...]:
    return tuple(name for name, _ in stages)


GPU_PIPELINE = names(GPU_PIPELINE_STAGES)
DEVICE_TO_LLVM = names(DEVICE_TO_LLVM_STAGES)
CPU_TO_LLVM = names(CPU_DEVICE_STAGES[1:])
"""The cpu path's stages after `cpu-workgroup-loops`."""
HOST_TO_LLVM = names(HOST_TO_LLVM_STAGES)

PIPELINES: dict[str, tuple[str, tuple[Stage, ...]]] = {
    "gpu-pipeline": ("the program (gpu-run, `gpuir.compile`)", GPU_PIPELINE_STAGES),
    "device-to-llvm": ("a device module for NVPTX (`-t llvm`, `-t ptx`)", DEVICE_TO_LLVM_STAGES),
    "cpu device": ("a device module for the cpu provider", CPU_DEVICE_STAGES),
    "host-to-llvm": ("the host module, compiled (cpu and cuda)", HOST_TO_LLVM_STAGES),
}
"""Each pipeline by the name gpu-opt knows it under (the cpu path has none: its first stage
is `cpu-workgroup-loops`), what it lowers, and its stages."""
