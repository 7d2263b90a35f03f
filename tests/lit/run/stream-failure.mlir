// The host fails (an out-of-bounds store) while a kernel on a stream spins for a value that no
// work will ever store: the failure is the program's error, at the store. The failed call
// forgets the stream's unfinished work before it closes the device, where waiting for it would
// hang (cpu) or report a hang instead (interp). (Compiled host code does not check its stores,
// so the cpu provider runs host code interpreted here.)
// RUN: not timeout 60 gpu-run %s --provider interp 2>&1 | filecheck %s
// RUN: not timeout 60 gpu-run %s --provider cpu --interpret-host 2>&1 | filecheck %s

// CHECK:      stream-failure.mlir:[[# @LINE + 31]]:5: error: out of bounds: host code stores 4 bytes to byte offset 20 of a 8-byte host allocation
// CHECK-NOT:  hang

func.func @spin(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
               %group: index, %item: index, %cell: !mem.ptr<i32, 1>)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %r = scf.while (%t = %m1) : (!mem.M<1>) -> (!mem.M<1>) {
    %t2, %v = mem.atomic_rmw "add" %t, %cell, %zero : !mem.ptr<i32, 1>
    %c = arith.cmpi slt, %v, %one : i32
    scf.condition(%c) %t2 : !mem.M<1>
  } do {
  ^bb0(%t: !mem.M<1>):
    scf.yield %t : !mem.M<1>
  }
  func.return %r, %m3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}

func.func @main(%m: !mem.M<0>) -> (!mem.M<0>) {
  %m0, %m1, %m4 = gpu.init %m
  %b1, %dev = gpu.alloc.block %m1 : !mem.ptr<i32, 1>
  %one = arith.constant 1 : index
  %e0, %e1 = gpu.with_streams %m0, %b1 count 1 {
  ^bb0(%s0: !mem.M<0>, %s1: !mem.M<1>, %stream1: !gpu.stream):
    %h0, %h1, %h4 = gpu.launch @spin grid(%one, %one) stream(%stream1) mems(%s0, %s1, %m4)
        args(%dev) : (!mem.ptr<i32, 1>)
    %x0, %host = mem.alloc %h0 : !mem.ptr<!mem.array<2 x i32>, 0>
    %five = arith.constant 5 : index
    %p = mem.lea %host, %five : !mem.ptr<!mem.array<2 x i32>, 0>
    %v = arith.constant 3 : i32
    %y0 = mem.store %x0, %p, %v : !mem.ptr<i32, 0>
    gpu.yield %y0, %h1 : !mem.M<0>, !mem.M<1>
  }
  %f1 = gpu.free.block %e1, %dev : !mem.ptr<i32, 1>
  %closed = gpu.deinit %e0, %f1, %m4
  func.return %closed : !mem.M<0>
}
