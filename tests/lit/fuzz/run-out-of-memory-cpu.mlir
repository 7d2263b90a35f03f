// RUN: not gpu-run %s --provider cpu 2>&1 | filecheck %s
//
// Found by the fuzzer: on the cpu provider an allocation larger than numpy can make was an
// internal error ("Maximum allowed dimension exceeded") in runtime/cpu/; like interp's
// (run-out-of-memory.mlir), it is now an `out of memory` diagnostic at the op.

// CHECK-NOT: Traceback
func.func @main(%m: !mem.M<0>) -> !mem.M<0> {
  %m0, %m1, %m4 = gpu.init %m
  %a1, %dev = gpu.alloc.block %m1 : !mem.ptr<!mem.array<9223372036854775807 x i1>, 1>
  %f1 = gpu.free.block %a1, %dev : !mem.ptr<!mem.array<9223372036854775807 x i1>, 1>
  %done = gpu.deinit %m0, %f1, %m4
  func.return %done : !mem.M<0>
}
// CHECK: run-out-of-memory-cpu.mlir:[[# @LINE - 5]]:3: error: out of memory: cannot make a 9223372036854775807-byte
// CHECK-NOT: {{Traceback|internal error}}
