// interp's token-order check behind an scf.if: the store in the branch and the store after it
// consume one token. When the branch runs (argument 1) the two stores are unordered; when it
// does not (argument 0) there is no fork at run time.
// -p '': check-tokens (in gpu-pipeline) proves these accesses touch the same bytes and
// refuses the program before it runs.
// RUN: gpu-run %s --provider interp -p '' 0 | filecheck %s --check-prefix=SKIPPED
// RUN: not gpu-run %s --provider interp -p '' 1 2>&1 | filecheck %s --check-prefix=TAKEN

func.func @main(%t: !mem.M<0>, %c: i1) -> (!mem.M<0>, i32) {
  %t0, %p = mem.slot %t : !mem.ptr<i32, 0>
  %one = arith.constant 1 : i32
  %two = arith.constant 2 : i32
  %t1 = scf.if %c -> (!mem.M<0>) {
    %s = mem.store %t0, %p, %one : !mem.ptr<i32, 0>
    scf.yield %s : !mem.M<0>
  } else {
    scf.yield %t0 : !mem.M<0>
  }
  %t2 = mem.store %t0, %p, %two : !mem.ptr<i32, 0>
  %t3, %v = mem.load %t2, %p : !mem.ptr<i32, 0>
  func.return %t3, %v : !mem.M<0>, i32
}

// SKIPPED: 2

// TAKEN: token-order-if.mlir:19:3: error: unordered access to host memory: host code writes byte 0 of a 4-byte host slot (by 'mem.slot' at {{.*}}token-order-if.mlir:10:3), which 'mem.store' at {{.*}}token-order-if.mlir:14:5 wrote, and no token chain orders the two: both consume one token
// TAKEN: token-order-if.mlir:14:5: note: the other access
// TAKEN-NOT: Traceback
