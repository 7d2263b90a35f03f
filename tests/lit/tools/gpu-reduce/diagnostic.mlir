// gpu-reduce --diagnostic: the program shrinks to what still makes gpu-pipeline print a
// diagnostic matching the regex (check-addr-spaces rejects a slot in global memory).
// RUN: gpu-reduce %s --diagnostic 'cannot be used in address space 1' -o %t.mlir 2> %t.log
// RUN: gpu-opt %t.mlir | filecheck %s
// RUN: not gpu-opt %t.mlir -p gpu-pipeline 2>&1 | filecheck %s --check-prefix=DIAG

// CHECK:      func.func @main(
// CHECK:        mem.slot {{.*}} : !mem.ptr<!mem.array<1 x i32>, 1>
// CHECK-NOT:    gpu.launch
// CHECK-NOT:    arith.addi

// DIAG: cannot be used in address space 1

func.func @main(%m: !mem.M<0>) -> (!mem.M<0>, i32) {
  %m0, %m1, %m4 = gpu.init %m
  %h0, %host = mem.alloc %m0 : !mem.ptr<!mem.array<4 x i32>, 0>
  %s1, %slot = mem.slot %m1 : !mem.ptr<!mem.array<4 x i32>, 1>
  %one = arith.constant 1 : index
  %four = arith.constant 4 : index
  %zero = arith.constant 0 : index
  %e = mem.lea %host, %zero : !mem.ptr<!mem.array<4 x i32>, 0>
  %seven = arith.constant 7 : i32
  %c0 = mem.store %h0, %e, %seven : !mem.ptr<i32, 0>
  %c1, %x = mem.load %c0, %e : !mem.ptr<i32, 0>
  %y = arith.addi %x, %x : i32
  %f0 = mem.free %c1, %host : !mem.ptr<!mem.array<4 x i32>, 0>
  %done = gpu.deinit %f0, %s1, %m4
  func.return %done, %y : !mem.M<0>, i32
}
