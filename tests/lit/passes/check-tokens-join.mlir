// RUN: gpu-opt %s -p check-tokens --verify-diagnostics -o /dev/null

// Two sides of a fork that join again: the scf.if yields either the token before the first
// store or the one after it, so the second store may or may not follow the first (a warning).
// What follows the join (the load and the free) is one chain in every run, and is not
// compared with itself (it was reported as an error: the free and the load "unordered").

func.func @main(%m: !mem.M<0>, %c: i1, %p: !mem.ptr<i32, 0>, %x: i32) -> (!mem.M<0>, i32) {
  %a0, %q = mem.alloc %m : !mem.ptr<i32, 0>
  // expected-note@+1 {{the other op of the pair}}
  %b0 = mem.store %a0, %p, %x : !mem.ptr<i32, 0>
  %t = scf.if %c -> (!mem.M<0>) {
    scf.yield %a0 : !mem.M<0>
  } else {
    scf.yield %b0 : !mem.M<0>
  }
  // expected-warning@+1 {{'mem.store' and 'mem.store' at}}
  %c0 = mem.store %t, %q, %x : !mem.ptr<i32, 0>
  %d0, %v = mem.load %c0, %q : !mem.ptr<i32, 0>
  %e0 = mem.free %d0, %q : !mem.ptr<i32, 0>
  func.return %e0, %v : !mem.M<0>, i32
}
