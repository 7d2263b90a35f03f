// A program without @main whose import makes no kernel is an error, and so is a kernel that
// the import makes at each of its launches (one taking a memref<T>, gpu-kernel-outlining's
// base buffer), which such a program does not have.
// RUN: not gpu-opt %s --upstream --split-input-file 2>&1 | filecheck %s

// CHECK: kernels-without-main-invalid.mlir: error: importing upstream MLIR: the program has no @main
func.func @helper(%a: i32) -> i32 {
  return %a : i32
}

// -----

// CHECK: kernels-without-main-invalid.mlir:15:3: error: importing upstream MLIR: 'gpu.func' is made at each of its launches (for the layout of the memory each gives it), and a program without @main has none
gpu.module @lib {
  gpu.func @base(%buf: memref<f32>) kernel {
    gpu.return
  }
}
