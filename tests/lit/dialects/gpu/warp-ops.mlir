// RUN: gpu-opt %s | filecheck %s
// RUN: ROUNDTRIP
// RUN: gpu-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// gpu.shuffle in its four modes on each type it takes, and gpu.ballot.
%m1, %m3, %i, %l, %x, %f, %d, %o, %w, %p = "test.op"() : () -> (!mem.M<1>, !mem.M<3>, i32, i64, index, f32, f64, i32, i32, i1)
%a1, %a3, %r0, %v0 = gpu.shuffle "xor" %m1, %m3, %i, %o, %w : i32
%b1, %b3, %r1, %v1 = gpu.shuffle "up" %a1, %a3, %l, %o, %w : i64
%c1, %c3, %r2, %v2 = gpu.shuffle "down" %b1, %b3, %x, %o, %w : index
%d1, %d3, %r3, %v3 = gpu.shuffle "idx" %c1, %c3, %f, %o, %w {tag} : f32
%e1, %e3, %r4, %v4 = gpu.shuffle "xor" %d1, %d3, %d, %o, %w : f64
%f1, %f3, %mask = gpu.ballot %e1, %e3, %p

// CHECK:      %a1, %a3, %r0, %v0 = gpu.shuffle "xor" %m1, %m3, %i, %o, %w : i32
// CHECK-NEXT: %b1, %b3, %r1, %v1 = gpu.shuffle "up" %a1, %a3, %l, %o, %w : i64
// CHECK-NEXT: %c1, %c3, %r2, %v2 = gpu.shuffle "down" %b1, %b3, %x, %o, %w : index
// CHECK-NEXT: %d1, %d3, %r3, %v3 = gpu.shuffle "idx" %c1, %c3, %f, %o, %w {tag} : f32
// CHECK-NEXT: %e1, %e3, %r4, %v4 = gpu.shuffle "xor" %d1, %d3, %d, %o, %w : f64
// CHECK-NEXT: %f1, %f3, %mask = gpu.ballot %e1, %e3, %p

// GENERIC: "gpu.shuffle"(%m1, %m3, %i, %o, %w) <{mode = "xor"}> : (!mem.M<1>, !mem.M<3>, i32, i32, i32) -> (!mem.M<1>, !mem.M<3>, i32, i1)
// GENERIC: "gpu.ballot"(%e1, %e3, %p) : (!mem.M<1>, !mem.M<3>, i1) -> (!mem.M<1>, !mem.M<3>, i32)

// Constant widths of 1 and 32 lanes, the least and the most a shuffle takes.
%one = arith.constant 1 : i32
%warp = arith.constant 32 : i32
%g1, %g3, %r5, %v5 = gpu.shuffle "down" %f1, %f3, %i, %o, %one : i32
%h1, %h3, %r6, %v6 = gpu.shuffle "idx" %g1, %g3, %i, %o, %warp : i32
// CHECK:      %g1, %g3, %r5, %v5 = gpu.shuffle "down" %f1, %f3, %i, %o, %one : i32
// CHECK-NEXT: %h1, %h3, %r6, %v6 = gpu.shuffle "idx" %g1, %g3, %i, %o, %warp : i32
