"""A gpuir program as upstream MLIR 22 (`gpu-opt -t mlir-upstream`, `docs/export.md`): host
code with memrefs, `gpu.alloc` / `gpu.memcpy` / `gpu.dealloc` / `gpu.launch_func` on async
tokens, and the kernels in a `gpu.module` with its `#nvvm.target`; no memory tokens.

`body` writes what host code and kernels share (values, types, scalar ops, `scf`, `cf`,
memory), `export` the program: its host functions, streams, launches and kernels.
"""
