// cf.assert in an upstream kernel, as CUDA's assert: a thread whose condition is false prints
// where and which thread, in CUDA's words, and stops; the others go on.
// RUN: gpu-run %s --provider interp | filecheck %s
// RUN: gpu-run %s --provider cpu | filecheck %s

// CHECK:      thread 0: print after passing assertion
// CHECK-NEXT: thread 1: print after passing assertion
// CHECK-NEXT: assert.mlir:21: test_assert: block: [0,0,0], thread: [2,0,0] Assertion `thread id below n` failed.
// CHECK-NEXT: assert.mlir:21: test_assert: block: [0,0,0], thread: [3,0,0] Assertion `thread id below n` failed.
// CHECK-NOT:  print after passing assertion
// A location of its own, as MLIR's NVVM lowering reads one: the callee of the innermost call
// site, a name location's name as the function and its file and line (thread 0 of 1 fails):
// CHECK:      lib.cc:42: helper: block: [0,0,0], thread: [0,0,0] Assertion `never` failed.
// CHECK-NOT:  after

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
    gpu.func @located() kernel {
      %false = arith.constant false
      cf.assert %false, "never" loc(callsite(callsite("helper"("lib.cc":42:3) at "mid.cc":5:1) at "top.cc":9:2))
      gpu.printf "after\n"
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    gpu.launch_func @kernels::@test_assert blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%c2 : index)
    gpu.launch_func @kernels::@located blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }
}
