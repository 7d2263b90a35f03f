// cf.assert in an upstream kernel, as CUDA's assert: a thread whose condition is false prints
// where and which thread, in CUDA's words, and stops; the others go on.
// RUN: gpu-run %s --provider interp | filecheck %s
// RUN: gpu-run %s --provider cpu | filecheck %s

// CHECK:      thread 0: print after passing assertion
// CHECK-NEXT: thread 1: print after passing assertion
// CHECK-NEXT: assert.mlir:17: test_assert: block: [0,0,0], thread: [2,0,0] Assertion `thread id below n` failed.
// CHECK-NEXT: assert.mlir:17: test_assert: block: [0,0,0], thread: [3,0,0] Assertion `thread id below n` failed.
// CHECK-NOT:  print after passing assertion

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @test_assert(%n: index) kernel {
      %tid = gpu.thread_id x
      %ok = arith.cmpi ult, %tid, %n : index
      cf.assert %ok, "thread id below n"
      %t = arith.index_cast %tid : index to i32
      gpu.printf "thread %d: print after passing assertion\n", %t : i32
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    gpu.launch_func @kernels::@test_assert blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%c2 : index)
    return
  }
}
