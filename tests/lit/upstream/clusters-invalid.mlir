// Clusters the import refuses: gpuir has no thread block clusters, so a launch runs only
// clusters of 1x1x1 blocks, given as constants; each other size is an error at the launch.
// RUN: not gpu-opt %s --split-input-file 2>&1 | filecheck %s

// CHECK: clusters-invalid.mlir:15:5: error: importing upstream MLIR: 'gpu.launch_func' with clusters of 2x1x1 blocks is not supported: gpuir has no thread block clusters (no cluster barrier or distributed shared memory), and runs only clusters of 1x1x1 blocks
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k() kernel {
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    gpu.launch_func @kernels::@k clusters in (%c2, %c1, %c1) blocks in (%c2, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }
}

// -----

// CHECK: clusters-invalid.mlir:25:3: error: importing upstream MLIR: 'gpu.launch' with cluster sizes that are not constants is not supported: gpuir has no thread block clusters, and runs only clusters of 1x1x1 blocks
func.func @main(%n: index) {
  %c1 = arith.constant 1 : index
  gpu.launch clusters(%cx, %cy, %cz) in (%sx = %n, %sy = %c1, %sz = %c1)
             blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%ex = %c1, %ey = %c1, %ez = %c1) {
    gpu.terminator
  }
  return
}

// -----

// CHECK:      clusters-invalid.mlir:41:46: error: 'gpu.launch_func' expects 3 cluster sizes, found 2
// CHECK-NEXT:     gpu.launch_func @kernels::@k clusters in (%c1, %c1) blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
// CHECK-NEXT: {{^                                             \^+$}}
module attributes {gpu.container_module} {
  func.func @main() {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@k clusters in (%c1, %c1) blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }
}
