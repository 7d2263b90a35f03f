// Known sizes the import refuses, each an error at the kernel: MLIR's known_block_size and
// known_grid_size are three sizes (x, y, z) of at least 1, as an array<i32: …>.
// RUN: not gpu-opt %s --split-input-file 2>&1 | filecheck %s

// CHECK: known-sizes-invalid.mlir:8:5: error: importing upstream MLIR: 'gpu.func' expects known_block_size to be array<i32: x, y, z> of sizes of at least 1, found array<i32: 4, 1>
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k() kernel attributes {known_block_size = array<i32: 4, 1>} {
      gpu.return
    }
  }
  func.func @main() {
    return
  }
}

// -----

// CHECK: known-sizes-invalid.mlir:22:5: error: importing upstream MLIR: 'gpu.func' expects known_grid_size to be array<i32: x, y, z> of sizes of at least 1, found array<i32: 0, 1, 1>
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k() kernel attributes {known_grid_size = array<i32: 0, 1, 1>} {
      gpu.return
    }
  }
  func.func @main() {
    return
  }
}

// -----

// CHECK: known-sizes-invalid.mlir:36:5: error: importing upstream MLIR: 'gpu.func' expects known_block_size to be array<i32: x, y, z> of sizes of at least 1, found [4 : i64, 1 : i64, 1 : i64]
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k() kernel attributes {known_block_size = [4, 1, 1]} {
      gpu.return
    }
  }
  func.func @main() {
    return
  }
}
