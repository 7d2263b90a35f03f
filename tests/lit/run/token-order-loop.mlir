// interp's token-order check in a loop: each iteration's store consumes the token from before
// the loop (not the iteration argument), so the iterations are unordered against each other.
// They write different elements, which is fine; the load after the loop follows the last
// iteration only: element 3 (argument 3) is ordered after its store, element 0 (argument 0) is
// not.
// -p '': check-tokens (in gpu-pipeline) proves these accesses touch the same bytes and
// refuses the program before it runs.
// RUN: gpu-run %s --provider interp -p '' 3 | filecheck %s --check-prefix=LAST
// RUN: not gpu-run %s --provider interp -p '' 0 2>&1 | filecheck %s --check-prefix=FIRST

func.func @main(%t: !mem.M<0>, %k: index) -> (!mem.M<0>, i32) {
  %t0, %p = mem.slot %t : !mem.ptr<!mem.array<4 x i32>, 0>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %t0) -> (!mem.M<0>) {
    %q = mem.lea %p, %i : !mem.ptr<!mem.array<4 x i32>, 0>
    %v = arith.index_cast %i : index to i32
    %n = mem.store %t0, %q, %v : !mem.ptr<i32, 0>
    scf.yield %n : !mem.M<0>
  }
  %e = mem.lea %p, %k : !mem.ptr<!mem.array<4 x i32>, 0>
  %t3, %v = mem.load %r, %e : !mem.ptr<i32, 0>
  func.return %t3, %v : !mem.M<0>, i32
}

// LAST: 3

// FIRST: token-order-loop.mlir:23:3: error: unordered access to host memory: host code reads byte 0 of a 16-byte host slot (by 'mem.slot' at {{.*}}token-order-loop.mlir:12:3), which 'mem.store' at {{.*}}token-order-loop.mlir:19:5 wrote, and no token chain orders the two: 'mem.store' at {{.*}}token-order-loop.mlir:19:5 consumes one token again each time it runs
// FIRST: token-order-loop.mlir:19:5: note: the other access
// FIRST-NOT: Traceback
