// MLIR's own PTX of the llvm-dialect gpu.modules that tests/lit/ptxas/llvm-gpu-module.mlir
// compiles with gpu-opt: the same CHECK lines (entries, their parameters, `ret;`) read the PTX
// that --gpu-lower-to-nvvm-pipeline puts in its gpu.binary (unescaped here), so gpuir's PTX
// names its kernels and parameters as MLIR's does.
// RUN: mlir-opt-22 %S/../../ptxas/llvm-gpu-module.mlir --gpu-lower-to-nvvm-pipeline="cubin-format=isa" \
// RUN:   | sed -e 's/\\0A/\n/g' -e 's/\\09/\t/g' | filecheck %S/../../ptxas/llvm-gpu-module.mlir
