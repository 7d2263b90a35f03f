// What the importer refuses of memref.get_global in kernels: each error at the op.
// RUN: not gpu-opt %s --split-input-file 2>&1 | filecheck %s

// A global that is not constant is one memory that every work-item may write: not imported.
// CHECK: global-kernel-invalid.mlir:10:7: error: importing upstream MLIR: 'memref.get_global' of @counts, which is not constant, is not supported in a kernel (yet)
module attributes {gpu.container_module} {
  gpu.module @kernels {
    memref.global "private" @counts : memref<4xi32> = dense<0>
    gpu.func @k() kernel {
      %g = memref.get_global @counts : memref<4xi32>
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }
}

// -----

// A kernel of a gpu.module sees that module's globals only, not the program's.
// CHECK: global-kernel-invalid.mlir:29:7: error: importing upstream MLIR: no memref.global @table
module attributes {gpu.container_module} {
  memref.global "private" constant @table : memref<4xi32> = dense<1>
  gpu.module @kernels {
    gpu.func @k() kernel {
      %g = memref.get_global @table : memref<4xi32>
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }
}
