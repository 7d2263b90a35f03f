// interp's token-order check: a free that shares its token with a load of the same memory.
// interp runs the load first (the order of the text), so there is no use after free in this
// run, but a pass may put the free first: the token-order check reports it.
// -p '': check-tokens (in gpu-pipeline) proves these accesses touch the same bytes and
// refuses the program before it runs.
// RUN: not gpu-run %s --provider interp -p '' 2>&1 | filecheck %s

func.func @main(%t: !mem.M<0>) -> (!mem.M<0>, i32) {
  %t0, %p = mem.alloc %t : !mem.ptr<i32, 0>
  %seven = arith.constant 7 : i32
  %t1 = mem.store %t0, %p, %seven : !mem.ptr<i32, 0>
  %t2, %v = mem.load %t1, %p : !mem.ptr<i32, 0>
  %t3 = mem.free %t1, %p : !mem.ptr<i32, 0>
  func.return %t3, %v : !mem.M<0>, i32
}

// CHECK: token-order-free.mlir:13:3: error: unordered access to host memory: host code frees byte 0 of a 4-byte host allocation (by 'mem.alloc' at {{.*}}token-order-free.mlir:9:3), which 'mem.load' at {{.*}}token-order-free.mlir:12:3 read, and no token chain orders the two: both consume one token
// CHECK: token-order-free.mlir:12:3: note: the other access
// CHECK-NOT: Traceback
