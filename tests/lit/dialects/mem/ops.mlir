// RUN: gpu-opt %s | filecheck %s
// RUN: ROUNDTRIP
// RUN: gpu-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// Every type and op of the mem dialect in its custom syntax.

%m0, %m1, %m3, %m4, %m5, %n, %i, %v = "test.op"() : () -> (!mem.M<0>, !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>, index, index, i32)

// Types: a token of every address space; pointers into every address space; static, dynamic,
// empty and nested arrays as pointees.
%t0, %t1, %t3, %t4, %t5, %pt0, %pt1, %pt3, %pt4, %pt5, %pe, %pp = "test.op"() : () -> (!mem.M<0>, !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>, !mem.ptr<i32, 0>, !mem.ptr<f32, 1>, !mem.ptr<i8, 3>, !mem.ptr<f64, 4>, !mem.ptr<index, 5>, !mem.ptr<!mem.array<0 x i32>, 0>, !mem.ptr<!mem.ptr<i32, 1>, 0>)
%pa, %pd, %pn = "test.op"() : () -> (!mem.ptr<!mem.array<4 x i32>, 1>, !mem.ptr<!mem.array<? x f32>, 3>, !mem.ptr<!mem.array<? x !mem.array<4 x !mem.array<2 x i64>>>, 0>)

// CHECK:      builtin.module {
// CHECK-NEXT:   %m0, %m1, %m3, %m4, %m5, %n, %i, %v = "test.op"() : () -> (!mem.M<0>, !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>, index, index, i32)
// CHECK-NEXT:   %t0, %t1, %t3, %t4, %t5, %pt0, %pt1, %pt3, %pt4, %pt5, %pe, %pp = "test.op"() : () -> (!mem.M<0>, !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>, !mem.ptr<i32, 0>, !mem.ptr<f32, 1>, !mem.ptr<i8, 3>, !mem.ptr<f64, 4>, !mem.ptr<index, 5>, !mem.ptr<!mem.array<0 x i32>, 0>, !mem.ptr<!mem.ptr<i32, 1>, 0>)
// CHECK-NEXT:   %pa, %pd, %pn = "test.op"() : () -> (!mem.ptr<!mem.array<4 x i32>, 1>, !mem.ptr<!mem.array<? x f32>, 3>, !mem.ptr<!mem.array<? x !mem.array<4 x !mem.array<2 x i64>>>, 0>)

// mem.alloc: a scalar, a static array, a dynamic array (with its extent), nested arrays.
%a0, %p0 = mem.alloc %m0 : !mem.ptr<i32, 0>
%a1, %p1 = mem.alloc %m1 : !mem.ptr<!mem.array<4 x f32>, 1>
%a2, %p2 = mem.alloc %m0, %n : !mem.ptr<!mem.array<? x i32>, 0>
%a3, %p3 = mem.alloc %a2, %n : !mem.ptr<!mem.array<? x !mem.array<4 x f32>>, 0>
%a4, %p4 = mem.alloc %m5 {tag} : !mem.ptr<!mem.array<4 x !mem.array<8 x i32>>, 5>

// CHECK-NEXT:   %a0, %p0 = mem.alloc %m0 : !mem.ptr<i32, 0>
// CHECK-NEXT:   %a1, %p1 = mem.alloc %m1 : !mem.ptr<!mem.array<4 x f32>, 1>
// CHECK-NEXT:   %a2, %p2 = mem.alloc %m0, %n : !mem.ptr<!mem.array<? x i32>, 0>
// CHECK-NEXT:   %a3, %p3 = mem.alloc %a2, %n : !mem.ptr<!mem.array<? x !mem.array<4 x f32>>, 0>
// CHECK-NEXT:   %a4, %p4 = mem.alloc %m5 {tag} : !mem.ptr<!mem.array<4 x !mem.array<8 x i32>>, 5>

// GENERIC:      "builtin.module"() ({
// GENERIC-NEXT:   %m0, %m1, %m3, %m4, %m5, %n, %i, %v = "test.op"() : () -> (!mem.M<0>, !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>, index, index, i32)
// GENERIC-NEXT:   %t0, %t1, %t3, %t4, %t5, %pt0, %pt1, %pt3, %pt4, %pt5, %pe, %pp = "test.op"() : () -> (!mem.M<0>, !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>, !mem.ptr<i32, 0>, !mem.ptr<f32, 1>, !mem.ptr<i8, 3>, !mem.ptr<f64, 4>, !mem.ptr<index, 5>, !mem.ptr<!mem.array<0 x i32>, 0>, !mem.ptr<!mem.ptr<i32, 1>, 0>)
// GENERIC-NEXT:   %pa, %pd, %pn = "test.op"() : () -> (!mem.ptr<!mem.array<4 x i32>, 1>, !mem.ptr<!mem.array<? x f32>, 3>, !mem.ptr<!mem.array<? x !mem.array<4 x !mem.array<2 x i64>>>, 0>)
// GENERIC-NEXT:   %a0, %p0 = "mem.alloc"(%m0) : (!mem.M<0>) -> (!mem.M<0>, !mem.ptr<i32, 0>)
// GENERIC-NEXT:   %a1, %p1 = "mem.alloc"(%m1) : (!mem.M<1>) -> (!mem.M<1>, !mem.ptr<!mem.array<4 x f32>, 1>)
// GENERIC-NEXT:   %a2, %p2 = "mem.alloc"(%m0, %n) : (!mem.M<0>, index) -> (!mem.M<0>, !mem.ptr<!mem.array<? x i32>, 0>)
// GENERIC-NEXT:   %a3, %p3 = "mem.alloc"(%a2, %n) : (!mem.M<0>, index) -> (!mem.M<0>, !mem.ptr<!mem.array<? x !mem.array<4 x f32>>, 0>)
// GENERIC-NEXT:   %a4, %p4 = "mem.alloc"(%m5) {tag} : (!mem.M<5>) -> (!mem.M<5>, !mem.ptr<!mem.array<4 x !mem.array<8 x i32>>, 5>)

// mem.malloc: `size` bytes, any pointee.
%b0, %q0 = mem.malloc %a0, %n : !mem.ptr<i8, 0>
%b1, %q1 = mem.malloc %a1, %n : !mem.ptr<!mem.array<? x f32>, 1>

// CHECK-NEXT:   %b0, %q0 = mem.malloc %a0, %n : !mem.ptr<i8, 0>
// CHECK-NEXT:   %b1, %q1 = mem.malloc %a1, %n : !mem.ptr<!mem.array<? x f32>, 1>

// GENERIC-NEXT:   %b0, %q0 = "mem.malloc"(%a0, %n) : (!mem.M<0>, index) -> (!mem.M<0>, !mem.ptr<i8, 0>)
// GENERIC-NEXT:   %b1, %q1 = "mem.malloc"(%a1, %n) : (!mem.M<1>, index) -> (!mem.M<1>, !mem.ptr<!mem.array<? x f32>, 1>)

// mem.slot (static pointees only) and mem.mslot (`size` bytes), e.g. a shared array.
%c0, %s0 = mem.slot %m3 : !mem.ptr<!mem.array<256 x f32>, 3>
%c1, %s1 = mem.slot %a4 : !mem.ptr<i64, 5>
%c2, %s2 = mem.mslot %c0, %n : !mem.ptr<!mem.array<? x f32>, 3>

// CHECK-NEXT:   %c0, %s0 = mem.slot %m3 : !mem.ptr<!mem.array<256 x f32>, 3>
// CHECK-NEXT:   %c1, %s1 = mem.slot %a4 : !mem.ptr<i64, 5>
// CHECK-NEXT:   %c2, %s2 = mem.mslot %c0, %n : !mem.ptr<!mem.array<? x f32>, 3>

// GENERIC-NEXT:   %c0, %s0 = "mem.slot"(%m3) : (!mem.M<3>) -> (!mem.M<3>, !mem.ptr<!mem.array<256 x f32>, 3>)
// GENERIC-NEXT:   %c1, %s1 = "mem.slot"(%a4) : (!mem.M<5>) -> (!mem.M<5>, !mem.ptr<i64, 5>)
// GENERIC-NEXT:   %c2, %s2 = "mem.mslot"(%c0, %n) : (!mem.M<3>, index) -> (!mem.M<3>, !mem.ptr<!mem.array<? x f32>, 3>)

// mem.lea: an element of a static, a dynamic and a nested array (pure, no token).
%e1 = mem.lea %p1, %i : !mem.ptr<!mem.array<4 x f32>, 1>
%e2 = mem.lea %p2, %i : !mem.ptr<!mem.array<? x i32>, 0>
%row = mem.lea %p3, %i : !mem.ptr<!mem.array<? x !mem.array<4 x f32>>, 0>
%e3 = mem.lea %row, %i : !mem.ptr<!mem.array<4 x f32>, 0>

// CHECK-NEXT:   %e1 = mem.lea %p1, %i : !mem.ptr<!mem.array<4 x f32>, 1>
// CHECK-NEXT:   %e2 = mem.lea %p2, %i : !mem.ptr<!mem.array<? x i32>, 0>
// CHECK-NEXT:   %row = mem.lea %p3, %i : !mem.ptr<!mem.array<? x !mem.array<4 x f32>>, 0>
// CHECK-NEXT:   %e3 = mem.lea %row, %i : !mem.ptr<!mem.array<4 x f32>, 0>

// GENERIC-NEXT:   %e1 = "mem.lea"(%p1, %i) : (!mem.ptr<!mem.array<4 x f32>, 1>, index) -> !mem.ptr<f32, 1>
// GENERIC-NEXT:   %e2 = "mem.lea"(%p2, %i) : (!mem.ptr<!mem.array<? x i32>, 0>, index) -> !mem.ptr<i32, 0>
// GENERIC-NEXT:   %row = "mem.lea"(%p3, %i) : (!mem.ptr<!mem.array<? x !mem.array<4 x f32>>, 0>, index) -> !mem.ptr<!mem.array<4 x f32>, 0>
// GENERIC-NEXT:   %e3 = "mem.lea"(%row, %i) : (!mem.ptr<!mem.array<4 x f32>, 0>, index) -> !mem.ptr<f32, 0>

// mem.load and mem.store, through plain and element pointers, in several spaces.
%d0, %x0 = mem.load %b0, %p0 : !mem.ptr<i32, 0>
%d1, %x1 = mem.load %b1, %e1 : !mem.ptr<f32, 1>
%d2 = mem.store %d0, %e2, %x0 : !mem.ptr<i32, 0>
%d3 = mem.store %d2, %e3, %x1 {tag} : !mem.ptr<f32, 0>
%d4, %x4 = mem.load %m4, %pt4 : !mem.ptr<f64, 4>

// CHECK-NEXT:   %d0, %x0 = mem.load %b0, %p0 : !mem.ptr<i32, 0>
// CHECK-NEXT:   %d1, %x1 = mem.load %b1, %e1 : !mem.ptr<f32, 1>
// CHECK-NEXT:   %d2 = mem.store %d0, %e2, %x0 : !mem.ptr<i32, 0>
// CHECK-NEXT:   %d3 = mem.store %d2, %e3, %x1 {tag} : !mem.ptr<f32, 0>
// CHECK-NEXT:   %d4, %x4 = mem.load %m4, %pt4 : !mem.ptr<f64, 4>

// GENERIC-NEXT:   %d0, %x0 = "mem.load"(%b0, %p0) : (!mem.M<0>, !mem.ptr<i32, 0>) -> (!mem.M<0>, i32)
// GENERIC-NEXT:   %d1, %x1 = "mem.load"(%b1, %e1) : (!mem.M<1>, !mem.ptr<f32, 1>) -> (!mem.M<1>, f32)
// GENERIC-NEXT:   %d2 = "mem.store"(%d0, %e2, %x0) : (!mem.M<0>, !mem.ptr<i32, 0>, i32) -> !mem.M<0>
// GENERIC-NEXT:   %d3 = "mem.store"(%d2, %e3, %x1) {tag} : (!mem.M<0>, !mem.ptr<f32, 0>, f32) -> !mem.M<0>
// GENERIC-NEXT:   %d4, %x4 = "mem.load"(%m4, %pt4) : (!mem.M<4>, !mem.ptr<f64, 4>) -> (!mem.M<4>, f64)

// mem.print_memref, mem.free and mem.remem.
%pm0 = mem.print_memref %d3, %p3 : !mem.ptr<!mem.array<? x !mem.array<4 x f32>>, 0>
%f0 = mem.free %pm0, %p3 : !mem.ptr<!mem.array<? x !mem.array<4 x f32>>, 0>
%f1 = mem.free %d1, %p1 : !mem.ptr<!mem.array<4 x f32>, 1>
%r0 = mem.remem %f0 : !mem.M<0>
%r3 = mem.remem %c2 {tag} : !mem.M<3>

// CHECK-NEXT:   %pm0 = mem.print_memref %d3, %p3 : !mem.ptr<!mem.array<? x !mem.array<4 x f32>>, 0>
// CHECK-NEXT:   %f0 = mem.free %pm0, %p3 : !mem.ptr<!mem.array<? x !mem.array<4 x f32>>, 0>
// CHECK-NEXT:   %f1 = mem.free %d1, %p1 : !mem.ptr<!mem.array<4 x f32>, 1>
// CHECK-NEXT:   %r0 = mem.remem %f0 : !mem.M<0>
// CHECK-NEXT:   %r3 = mem.remem %c2 {tag} : !mem.M<3>
// CHECK-NEXT: }

// GENERIC-NEXT:   %pm0 = "mem.print_memref"(%d3, %p3) : (!mem.M<0>, !mem.ptr<!mem.array<? x !mem.array<4 x f32>>, 0>) -> !mem.M<0>
// GENERIC-NEXT:   %f0 = "mem.free"(%pm0, %p3) : (!mem.M<0>, !mem.ptr<!mem.array<? x !mem.array<4 x f32>>, 0>) -> !mem.M<0>
// GENERIC-NEXT:   %f1 = "mem.free"(%d1, %p1) : (!mem.M<1>, !mem.ptr<!mem.array<4 x f32>, 1>) -> !mem.M<1>
// GENERIC-NEXT:   %r0 = "mem.remem"(%f0) : (!mem.M<0>) -> !mem.M<0>
// GENERIC-NEXT:   %r3 = "mem.remem"(%c2) {tag} : (!mem.M<3>) -> !mem.M<3>
// GENERIC-NEXT: }) : () -> ()
