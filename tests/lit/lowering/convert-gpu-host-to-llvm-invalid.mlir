// RUN: gpu-opt %s -p convert-gpu-host-to-llvm --verify-diagnostics --split-input-file

// Host code reads host memory only (as the host executor says at run time).
func.func @main(%m: !mem.M<0>, %m1: !mem.M<1>, %p: !mem.ptr<i32, 1>) -> (!mem.M<0>, i32) {
  // expected-error @below {{host code loads from global memory, which it cannot access directly (copy it with gpu.copy_to_host / gpu.copy_to_device)}}
  %n1, %v = mem.load %m1, %p : !mem.ptr<i32, 1>
  func.return %m, %v : !mem.M<0>, i32
}


// -----

// Composites are expanded first (host-to-llvm runs expand-gpu-composites before this pass).
func.func @main(%m: !mem.M<0>) -> !mem.M<0> {
  %m0, %m1, %m4 = gpu.init %m
  %h0, %host = mem.alloc %m0 : !mem.ptr<!mem.array<4 x i32>, 0>
  // expected-error @below {{'gpu.alloc_copy.block' must be expanded first: run expand-gpu-composites}}
  %c0, %c1, %dev = gpu.alloc_copy.block %h0, %m1, %host
      : !mem.ptr<!mem.array<4 x i32>, 0> -> !mem.ptr<!mem.array<4 x i32>, 1>
  %done = gpu.deinit %c0, %c1, %m4
  func.return %done : !mem.M<0>
}


// -----

// Buffers are lowered to pointers first (gpu-pipeline runs buffer-lower-ptr).
func.func @main(%m: !mem.M<0>) -> !mem.M<0> {
  %v = arith.constant 1 : i32
  // expected-error @below {{'buffer.lit' must be lowered first: run buffer-lower-ptr}}
  %m1, %b = buffer.lit %m, %v : i32 -> !buffer.buf<2xi32>
  func.return %m1 : !mem.M<0>
}


// -----

// A heap in local memory is an error, as in check-addr-spaces.
func.func @main(%m: !mem.M<5>) -> !mem.M<5> {
  // expected-error @below {{'mem.alloc' cannot be used in address space 5 (local)}}
  %m1, %p = mem.alloc %m : !mem.ptr<i32, 5>
  func.return %m1 : !mem.M<5>
}
