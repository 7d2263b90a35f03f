"""The `cpu` provider's target: a device module as LLVM IR for this CPU, one work-group per call.

- `cpu_llvm.py`: `host_program`, the whole lowering (the kernels' forms below, then the shared
  stages of `gpuir.lowering.llvm` without NVVM, the translation for this CPU, a launch entry per
  kernel, LLVM's optimizer);
- `workgroup_loops.py`: `cpu-workgroup-loops`, each kernel as a work-group function whose
  work-items run as loops between barriers (`fission.py`, when `Fission.placement` finds its
  barriers where it can take them), or else in resumable form (`resume.py`, on the kernel's
  calls inlined and its `scf` as `cf` blocks: `blocks.py`); what they share is `workgroups.py`;
- `check_accesses.py`: `cpu-check-accesses`, the instrumentation of `--provider cpu --check`.

It imports `gpuir.lowering.llvm`, never `gpuir.lowering.nvptx` (`tests/test_layers.py`).
"""
