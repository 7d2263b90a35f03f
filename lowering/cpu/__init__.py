"""The `cpu` provider's target: a device module as LLVM IR for this CPU, one work-group per call.

- `cpu_llvm.py`: `host_program`, the whole lowering (the kernels' forms below, then the shared
  stages of `gpuir.lowering.llvm` without NVVM, the translation for this CPU, a launch entry per
  kernel, LLVM's optimizer);
- `workgroup_loops.py`: `cpu-workgroup-loops`, each kernel as a work-group function in the
  form `forms.py` chooses first: work-items as loops between barriers and warp operations
  (`fission.py`, when `Fission.placement` finds them where the whole group reaches them; a
  warp operation a loop over the group's lanes: `warps.py`), a warp's lanes as LLVM vectors
  where the kernel's warp operations are all at its top level (`warp_vectors.py`, with what it
  asks of the IR in `lanes.py`), or else in resumable form (`resume.py`, on the kernel's calls inlined and its `scf` as `cf` blocks: `blocks.py`);
  what they share is `workgroups.py`;
- `streaming.py`: a kernel's write-only outputs, and its stream entry's non-temporal stores;
- `check_accesses.py`: `cpu-check-accesses`, the instrumentation of `--provider cpu --check`.

It imports `gpuir.lowering.llvm`, never `gpuir.lowering.nvptx` (`tests/test_layers.py`).
"""
