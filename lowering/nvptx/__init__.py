"""The NVPTX target: the device module to NVVM, LLVM IR for `nvptx64-nvidia-cuda`, PTX and a
cubin (what the `cuda` provider loads, and gpu-opt's `-t llvm` / `-t ptx`).

- `device_to_llvm.py`: `device-to-llvm`, the device module to the llvm dialect as one list of
  stages (`ir/pipelines.py`'s `DEVICE_TO_LLVM`: the shared conversions of `gpuir.lowering.llvm`
  around `convert-gpu-to-nvvm`);
- `gpu_to_nvvm.py`: `convert-gpu-to-nvvm`, the device `gpu` ops and the kernel ABI in NVVM terms,
  with `collectives.py` (the work-group collectives as shuffles and shared memory);
- `ptx.py`: LLVM IR → PTX through LLVM's NVPTX back end (`PtxOptions`, `compile_ptx`);
- `ptxas.py`: PTX → cubin with NVIDIA's `ptxas`, and its resource report.

It imports `gpuir.lowering.llvm`, never `gpuir.lowering.cpu` (`tests/test_layers.py`).
"""
