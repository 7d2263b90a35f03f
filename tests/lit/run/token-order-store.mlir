// interp's token-order check: two stores consume one token, so no chain orders them. @set
// cannot tell whether %p and %q are the same slot, so check-tokens (in gpu-pipeline) only
// warns; interp reports the conflict when they are (argument 1), and runs the program when
// they are not (argument 0).
// RUN: gpu-run %s --provider interp 0 2>&1 | filecheck %s --check-prefix=APART
// RUN: not gpu-run %s --provider interp 1 2>&1 | filecheck %s --check-prefix=SAME

func.func @set(%t: !mem.M<0>, %p: !mem.ptr<i32, 0>, %q: !mem.ptr<i32, 0>) -> (!mem.M<0>, i32) {
  %one = arith.constant 1 : i32
  %two = arith.constant 2 : i32
  %t1 = mem.store %t, %p, %one : !mem.ptr<i32, 0>
  %t2 = mem.store %t, %q, %two : !mem.ptr<i32, 0>
  %t3, %v = mem.load %t1, %p : !mem.ptr<i32, 0>
  func.return %t3, %v : !mem.M<0>, i32
}

func.func @main(%t: !mem.M<0>, %same: i1) -> (!mem.M<0>, i32) {
  %t0, %p = mem.slot %t : !mem.ptr<i32, 0>
  %t1, %q = mem.slot %t0 : !mem.ptr<i32, 0>
  %r = arith.select %same, %p, %q : !mem.ptr<i32, 0>
  %t2, %v = func.call @set(%t1, %p, %r) : (!mem.M<0>, !mem.ptr<i32, 0>, !mem.ptr<i32, 0>) -> (!mem.M<0>, i32)
  func.return %t2, %v : !mem.M<0>, i32
}

// SAME: token-order-store.mlir:12:3: error: unordered access to host memory: host code writes byte 0 of a 4-byte host slot (by 'mem.slot' at {{.*}}token-order-store.mlir:18:3), which 'mem.store' at {{.*}}token-order-store.mlir:11:3 wrote, and no token chain orders the two: both consume one token
// SAME: token-order-store.mlir:11:3: note: the other access
// SAME-NOT: Traceback

// APART: token-order-store.mlir:12:3: warning: 'mem.store' and 'mem.store' at {{.*}}token-order-store.mlir:11:3 consume the same !mem.M<0> token
// APART-NOT: error
// APART: {{^}}1
