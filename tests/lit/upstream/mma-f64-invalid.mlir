// The f64 tiles (m8n8k4) that gpuir refuses, each an error at the op: a tile of the wrong
// shape, a product of f64 operands into an f32 accumulator, and a target older than sm_80.
// RUN: not gpu-opt %s --split-input-file 2>&1 | filecheck %s
// RUN: not gpu-opt %S/mma-f64.mlir -t 'ptx{sm=75}' 2>&1 | filecheck %s --check-prefix=SM75

// SM75: mma-f64.mlir:{{[0-9]+}}:7: error: 'gpu.mma_load' of f64 (wmma.m8n8k4) needs sm_80 or newer, found sm_75

// CHECK: mma-f64-invalid.mlir:13:7: error: importing upstream MLIR: 'gpu.subgroup_mma_load_matrix' of !gpu.mma_matrix<8x8xf64, "AOp">: !gpu.fragment of kind "a" and f64 is 8x4, found 8x8
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%a: memref<8x8xf64>) kernel {
      %c0 = arith.constant 0 : index
      %fa = gpu.subgroup_mma_load_matrix %a[%c0, %c0] {leadDimension = 8 : index} : memref<8x8xf64> -> !gpu.mma_matrix<8x8xf64, "AOp">
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %a = gpu.alloc() : memref<8x8xf64>
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%a : memref<8x8xf64>)
    return
  }
}

// -----

// CHECK: mma-f64-invalid.mlir:37:7: error: 'gpu.mma_compute' expects an accumulator of f64 for operands of f64, found f32
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%a: memref<8x4xf64>, %b: memref<4x8xf64>) kernel {
      %c0 = arith.constant 0 : index
      %zero = arith.constant 0.0 : f32
      %fa = gpu.subgroup_mma_load_matrix %a[%c0, %c0] {leadDimension = 4 : index} : memref<8x4xf64> -> !gpu.mma_matrix<8x4xf64, "AOp">
      %fb = gpu.subgroup_mma_load_matrix %b[%c0, %c0] {leadDimension = 8 : index} : memref<4x8xf64> -> !gpu.mma_matrix<4x8xf64, "BOp">
      %fc = gpu.subgroup_mma_constant_matrix %zero : !gpu.mma_matrix<16x16xf32, "COp">
      %fd = gpu.subgroup_mma_compute %fa, %fb, %fc : !gpu.mma_matrix<8x4xf64, "AOp">, !gpu.mma_matrix<4x8xf64, "BOp"> -> !gpu.mma_matrix<16x16xf32, "COp">
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %a = gpu.alloc() : memref<8x4xf64>
    %b = gpu.alloc() : memref<4x8xf64>
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%a : memref<8x4xf64>, %b : memref<4x8xf64>)
    return
  }
}
