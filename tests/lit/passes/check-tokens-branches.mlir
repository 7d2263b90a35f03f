// RUN: gpu-opt %s -p check-tokens --verify-diagnostics -o /dev/null
// RUN: gpu-opt %s -p check-tokens --mlir-pass-statistics -o /dev/null 2>&1 | filecheck %s

// A conditional branch that passes one token to each of its successors is no fork: one
// successor runs (upstream/shuffle-cf.mlir's kernel after the import was reported as one).

// CHECK: (S) 0 num-unordered-conflicts - Number of forks that leave conflicting effects unordered

func.func @main(%m: !mem.M<0>, %c: i1, %x: i32) -> (!mem.M<0>, i32) {
  %a0, %p = mem.alloc %m : !mem.ptr<i32, 0>
  cf.cond_br %c, ^store(%a0 : !mem.M<0>), ^skip(%a0 : !mem.M<0>)
^skip(%s0: !mem.M<0>):
  %b0 = mem.store %s0, %p, %x : !mem.ptr<i32, 0>
  cf.br ^store(%b0 : !mem.M<0>)
^store(%t0: !mem.M<0>):
  %c0 = mem.store %t0, %p, %x : !mem.ptr<i32, 0>
  %d0, %v = mem.load %c0, %p : !mem.ptr<i32, 0>
  %e0 = mem.free %d0, %p : !mem.ptr<i32, 0>
  func.return %e0, %v : !mem.M<0>, i32
}
