// RUN: gpu-opt %s | filecheck %s
// RUN: ROUNDTRIP
// RUN: gpu-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// The atomics of the mem dialect in their custom syntax: every kind on a 32- and a 64-bit
// integer, index, f32 and f64, in host, global and shared memory; compare-and-swap (of floats
// too: by their bits).
%m0, %m1, %m3, %h, %g, %s, %l, %x, %f, %d, %pi, %pf, %pd, %i, %j, %k, %a, %b = "test.op"() : () -> (!mem.M<0>, !mem.M<1>, !mem.M<3>, !mem.ptr<i32, 0>, !mem.ptr<i32, 1>, !mem.ptr<i32, 3>, !mem.ptr<i64, 1>, !mem.ptr<index, 1>, !mem.ptr<f32, 1>, !mem.ptr<f64, 3>, i32, f32, f64, i64, index, i32, f32, f64)
%a0, %o0 = mem.atomic_rmw "add" %m0, %h, %pi : !mem.ptr<i32, 0>
%a1, %o1 = mem.atomic_rmw "sub" %m1, %g, %pi : !mem.ptr<i32, 1>
%a3, %o2 = mem.atomic_rmw "max" %m3, %s, %pi : !mem.ptr<i32, 3>
%b1, %o3 = mem.atomic_rmw "min" %a1, %l, %i : !mem.ptr<i64, 1>
%c1, %o4 = mem.atomic_rmw "umax" %b1, %x, %j : !mem.ptr<index, 1>
%d1, %o5 = mem.atomic_rmw "umin" %c1, %g, %pi : !mem.ptr<i32, 1>
%e1, %o6 = mem.atomic_rmw "and" %d1, %g, %pi : !mem.ptr<i32, 1>
%f1, %o7 = mem.atomic_rmw "or" %e1, %g, %pi : !mem.ptr<i32, 1>
%g1, %o8 = mem.atomic_rmw "xor" %f1, %g, %pi : !mem.ptr<i32, 1>
%h1, %o9 = mem.atomic_rmw "xchg" %g1, %g, %pi {tag} : !mem.ptr<i32, 1>
%i1, %o10 = mem.atomic_rmw "add" %h1, %f, %pf : !mem.ptr<f32, 1>
%b3, %o11 = mem.atomic_rmw "max" %a3, %d, %pd : !mem.ptr<f64, 3>
%c3, %o12 = mem.atomic_rmw "min" %b3, %d, %pd : !mem.ptr<f64, 3>
%j1, %o13 = mem.atomic_rmw "xchg" %i1, %f, %pf : !mem.ptr<f32, 1>
%k1, %old, %ok = mem.cmpxchg %j1, %l, %i, %i : !mem.ptr<i64, 1>
%d3, %old3, %ok3 = mem.cmpxchg %c3, %s, %pi, %pi : !mem.ptr<i32, 3>
%e3, %old4, %ok4 = mem.cmpxchg %d3, %d, %pd, %pd : !mem.ptr<f64, 3>

// CHECK:        %a0, %o0 = mem.atomic_rmw "add" %m0, %h, %pi : !mem.ptr<i32, 0>
// CHECK-NEXT:   %a1, %o1 = mem.atomic_rmw "sub" %m1, %g, %pi : !mem.ptr<i32, 1>
// CHECK-NEXT:   %a3, %o2 = mem.atomic_rmw "max" %m3, %s, %pi : !mem.ptr<i32, 3>
// CHECK-NEXT:   %b1, %o3 = mem.atomic_rmw "min" %a1, %l, %i : !mem.ptr<i64, 1>
// CHECK-NEXT:   %c1, %o4 = mem.atomic_rmw "umax" %b1, %x, %j : !mem.ptr<index, 1>
// CHECK-NEXT:   %d1, %o5 = mem.atomic_rmw "umin" %c1, %g, %pi : !mem.ptr<i32, 1>
// CHECK-NEXT:   %e1, %o6 = mem.atomic_rmw "and" %d1, %g, %pi : !mem.ptr<i32, 1>
// CHECK-NEXT:   %f1, %o7 = mem.atomic_rmw "or" %e1, %g, %pi : !mem.ptr<i32, 1>
// CHECK-NEXT:   %g1, %o8 = mem.atomic_rmw "xor" %f1, %g, %pi : !mem.ptr<i32, 1>
// CHECK-NEXT:   %h1, %o9 = mem.atomic_rmw "xchg" %g1, %g, %pi {tag} : !mem.ptr<i32, 1>
// CHECK-NEXT:   %i1, %o10 = mem.atomic_rmw "add" %h1, %f, %pf : !mem.ptr<f32, 1>
// CHECK-NEXT:   %b3, %o11 = mem.atomic_rmw "max" %a3, %d, %pd : !mem.ptr<f64, 3>
// CHECK-NEXT:   %c3, %o12 = mem.atomic_rmw "min" %b3, %d, %pd : !mem.ptr<f64, 3>
// CHECK-NEXT:   %j1, %o13 = mem.atomic_rmw "xchg" %i1, %f, %pf : !mem.ptr<f32, 1>
// CHECK-NEXT:   %k1, %old, %ok = mem.cmpxchg %j1, %l, %i, %i : !mem.ptr<i64, 1>
// CHECK-NEXT:   %d3, %old3, %ok3 = mem.cmpxchg %c3, %s, %pi, %pi : !mem.ptr<i32, 3>
// CHECK-NEXT:   %e3, %old4, %ok4 = mem.cmpxchg %d3, %d, %pd, %pd : !mem.ptr<f64, 3>

// GENERIC:      %a0, %o0 = "mem.atomic_rmw"(%m0, %h, %pi) <{kind = "add"}> : (!mem.M<0>, !mem.ptr<i32, 0>, i32) -> (!mem.M<0>, i32)
// GENERIC:      %k1, %old, %ok = "mem.cmpxchg"(%j1, %l, %i, %i) : (!mem.M<1>, !mem.ptr<i64, 1>, i64, i64) -> (!mem.M<1>, i64, i1)
