// MLIR's own -convert-vector-to-gpu on the program of ../convert-vector-to-gpu-run.mlir: its
// gpu.subgroup_mma ops (and the vector ops it leaves for a later dead-code elimination) run
// unchanged and print the numbers that gpuir's --upstream-pass=convert-vector-to-gpu gives,
// numpy's (that program's CHECK lines).
// RUN: mlir-opt-22 %S/../convert-vector-to-gpu-run.mlir -convert-vector-to-gpu > %t.mlir
// RUN: filecheck %s --check-prefix=CONVERTED < %t.mlir
// RUN: gpu-run %t.mlir --provider interp | filecheck %S/../convert-vector-to-gpu-run.mlir
// RUN: gpu-run %t.mlir --provider cpu | filecheck %S/../convert-vector-to-gpu-run.mlir

// CONVERTED: gpu.subgroup_mma_load_matrix {{.*}} {leadDimension = 16 : index, transpose} : memref<16x16xf16> -> !gpu.mma_matrix<16x16xf16, "AOp">
// CONVERTED: gpu.subgroup_mma_compute
// CONVERTED: gpu.subgroup_mma_elementwise  negatef
// CONVERTED: gpu.subgroup_mma_store_matrix
