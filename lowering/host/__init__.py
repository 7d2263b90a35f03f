"""The host module's target: host code as LLVM IR for this CPU that calls a runtime through its
C ABI (the compiled host, `gpuir.runtime.compiled_host`, and gpu-opt's `-t host-llvm`).

- `host_to_llvm.py`: `host-to-llvm`, the host module to the llvm dialect as one list of stages
  (`ir/pipelines.py`'s `HOST_TO_LLVM`), then LLVM IR for this CPU and the JIT shim;
- `gpu_host_to_llvm.py`: `convert-gpu-host-to-llvm`, the `gpu` ops and the host heap as calls of
  the runtime; `printf_to_llvm.py`: `convert-printf-to-llvm`, `printf` as calls of its print
  functions;
- `host_abi.py`: the C ABI itself, one table (`runtime/gpuir_runtime.h` is the same in C).

It imports `gpuir.lowering.llvm` only (`tests/test_layers.py`).
"""
