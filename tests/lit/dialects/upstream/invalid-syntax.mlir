// The upstream gpu syntax that gpuir reads (gpuir.ir.upstream.gpu_ops), wrong: each a parse
// error at the place, in its words.
// RUN: not gpu-opt %s --upstream --split-input-file 2>&1 | filecheck %s

// CHECK: invalid-syntax.mlir:8:26: error: 'gpu.launch_func' expects 3 grid and 3 block sizes, found 2 and 3
func.func @main() {
  %c1 = arith.constant 1 : index
  gpu.launch_func @m::@k blocks in (%c1, %c1) threads in (%c1, %c1, %c1)
}

// -----

// CHECK: invalid-syntax.mlir:16:24: error: 'gpu.thread_id' expects x, y or z, found w
gpu.module @m {
  gpu.func @k() kernel {
    %t = gpu.thread_id w
    gpu.return
  }
}

// -----

// CHECK: invalid-syntax.mlir:26:24: error: 'gpu.alloc' with symbol operands is not supported
func.func @main() {
  %c1 = arith.constant 1 : index
  %m = gpu.alloc (%c1) [%c1] : memref<?xf32>
  return
}

// -----

// CHECK: invalid-syntax.mlir:34:58: error: 'gpu.address_space' expects global, workgroup or private, found shared
func.func @main() {
  %m = memref.alloc() : memref<4xf32, #gpu.address_space<shared>>
  return
}
