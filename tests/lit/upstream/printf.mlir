// gpu.printf in an upstream kernel, as MLIR's printf test writes it: %lld of an index, %d of
// an i8, %f of an f32 (C's six decimals), printed whole by each of 2 threads.
// RUN: gpu-run %s --provider interp | filecheck %s
// RUN: gpu-run %s --provider cpu | filecheck %s
// RUN: gpu-opt %s | filecheck %s --check-prefix=IMPORTED

// CHECK:      Hello from 0, 2, 3.000000
// CHECK-NEXT: Hello from 1, 2, 3.000000
// CHECK-EMPTY:

// IMPORTED: printf.print_format "Hello from {}, {}, {}\0A", %{{.*}} : index, %csti8 : i8, %cstf32 : f32 {gpu.printf_specs = ["lld", "d", "f"]}

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @hello() kernel {
      %0 = gpu.thread_id x
      %csti8 = arith.constant 2 : i8
      %cstf32 = arith.constant 3.0 : f32
      gpu.printf "Hello from %lld, %d, %f\n", %0, %csti8, %cstf32 : index, i8, f32
      gpu.return
    }
  }
  func.func @main() {
    %c2 = arith.constant 2 : index
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@hello blocks in (%c1, %c1, %c1) threads in (%c2, %c1, %c1)
    return
  }
}
