// RUN: gpu-opt %s | filecheck %s
// RUN: ROUNDTRIP
// RUN: gpu-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// The matrix ops (tensor cores) and !gpu.fragment: loads from global and shared memory (one
// transposed), a constant, a product, elementwise ops of two and one fragment, a store.
%m1, %m3, %p, %q, %s, %i, %x, %h = "test.op"() : () -> (!mem.M<1>, !mem.M<3>, !mem.ptr<!mem.array<? x !mem.array<32 x f16>>, 1>, !mem.ptr<!mem.array<? x f32>, 1>, !mem.ptr<!mem.array<256 x f16>, 3>, index, f32, f16)
%a1, %a3, %a = gpu.mma_load %m1, %m3, %p[%i] {lead = 32} : !mem.ptr<!mem.array<? x !mem.array<32 x f16>>, 1> -> !gpu.fragment<16x16xf16, "a">
%b1, %b3, %b = gpu.mma_load %a1, %a3, %s[%i] {lead = 16, transpose} : !mem.ptr<!mem.array<256 x f16>, 3> -> !gpu.fragment<16x16xf16, "b">
%c1, %c3, %c = gpu.mma_constant %b1, %b3, %x : f32 -> !gpu.fragment<16x16xf32, "c">
%d1, %d3, %d = gpu.mma_compute %c1, %c3, %a, %b, %c {b_transpose} : !gpu.fragment<16x16xf16, "a">, !gpu.fragment<16x16xf16, "b">, !gpu.fragment<16x16xf32, "c"> -> !gpu.fragment<16x16xf32, "c">
%e1, %e3, %e = gpu.mma_elementwise "maxf" %d1, %d3, %d, %c : !gpu.fragment<16x16xf32, "c">, !gpu.fragment<16x16xf32, "c"> -> !gpu.fragment<16x16xf32, "c">
%f1, %f3, %f = gpu.mma_elementwise "negatef" %e1, %e3, %e : !gpu.fragment<16x16xf32, "c"> -> !gpu.fragment<16x16xf32, "c">
%g1, %g3 = gpu.mma_store %f1, %f3, %f, %q[%i] {lead = 16, transpose} : !gpu.fragment<16x16xf32, "c">, !mem.ptr<!mem.array<? x f32>, 1>

// CHECK:      %a1, %a3, %a = gpu.mma_load %m1, %m3, %p[%i] {lead = 32 : i64} : !mem.ptr<!mem.array<? x !mem.array<32 x f16>>, 1> -> !gpu.fragment<16x16xf16, "a">
// CHECK-NEXT: %b1, %b3, %b = gpu.mma_load %a1, %a3, %s[%i] {lead = 16 : i64, transpose} : !mem.ptr<!mem.array<256 x f16>, 3> -> !gpu.fragment<16x16xf16, "b">
// CHECK-NEXT: %c1, %c3, %c = gpu.mma_constant %b1, %b3, %x : f32 -> !gpu.fragment<16x16xf32, "c">
// CHECK-NEXT: %d1, %d3, %d = gpu.mma_compute %c1, %c3, %a, %b, %c {b_transpose} : !gpu.fragment<16x16xf16, "a">, !gpu.fragment<16x16xf16, "b">, !gpu.fragment<16x16xf32, "c"> -> !gpu.fragment<16x16xf32, "c">
// CHECK-NEXT: %e1, %e3, %e = gpu.mma_elementwise "maxf" %d1, %d3, %d, %c : !gpu.fragment<16x16xf32, "c">, !gpu.fragment<16x16xf32, "c"> -> !gpu.fragment<16x16xf32, "c">
// CHECK-NEXT: %f1, %f3, %f = gpu.mma_elementwise "negatef" %e1, %e3, %e : !gpu.fragment<16x16xf32, "c"> -> !gpu.fragment<16x16xf32, "c">
// CHECK-NEXT: %g1, %g3 = gpu.mma_store %f1, %f3, %f, %q[%i] {lead = 16 : i64, transpose} : !gpu.fragment<16x16xf32, "c">, !mem.ptr<!mem.array<? x f32>, 1>

// GENERIC: "gpu.mma_load"(%m1, %m3, %p, %i) <{lead = 32 : i64}> : (!mem.M<1>, !mem.M<3>, !mem.ptr<!mem.array<? x !mem.array<32 x f16>>, 1>, index) -> (!mem.M<1>, !mem.M<3>, !gpu.fragment<16x16xf16, "a">)
// GENERIC: "gpu.mma_compute"(%c1, %c3, %a, %b, %c) <{b_transpose}>
// GENERIC: "gpu.mma_elementwise"(%d1, %d3, %d, %c) <{kind = "maxf"}>

// The f64 tiles (m8n8k4): an 8x4 "a", a 4x8 "b" (transposed, lead 4), an 8x8 "c".
%n1, %n3, %r, %j, %y = "test.op"() : () -> (!mem.M<1>, !mem.M<3>, !mem.ptr<!mem.array<? x f64>, 1>, index, f64)
%p1, %p3, %pa = gpu.mma_load %n1, %n3, %r[%j] {lead = 4} : !mem.ptr<!mem.array<? x f64>, 1> -> !gpu.fragment<8x4xf64, "a">
%q1, %q3, %qb = gpu.mma_load %p1, %p3, %r[%j] {lead = 4, transpose} : !mem.ptr<!mem.array<? x f64>, 1> -> !gpu.fragment<4x8xf64, "b">
%r1, %r3, %rc = gpu.mma_constant %q1, %q3, %y : f64 -> !gpu.fragment<8x8xf64, "c">
%s1, %s3, %sd = gpu.mma_compute %r1, %r3, %pa, %qb, %rc {b_transpose} : !gpu.fragment<8x4xf64, "a">, !gpu.fragment<4x8xf64, "b">, !gpu.fragment<8x8xf64, "c"> -> !gpu.fragment<8x8xf64, "c">
%t1, %t3 = gpu.mma_store %s1, %s3, %sd, %r[%j] {lead = 8} : !gpu.fragment<8x8xf64, "c">, !mem.ptr<!mem.array<? x f64>, 1>

// CHECK:      %p1, %p3, %pa = gpu.mma_load %n1, %n3, %r[%j] {lead = 4 : i64} : !mem.ptr<!mem.array<? x f64>, 1> -> !gpu.fragment<8x4xf64, "a">
// CHECK-NEXT: %q1, %q3, %qb = gpu.mma_load %p1, %p3, %r[%j] {lead = 4 : i64, transpose} : !mem.ptr<!mem.array<? x f64>, 1> -> !gpu.fragment<4x8xf64, "b">
// CHECK-NEXT: %r1, %r3, %rc = gpu.mma_constant %q1, %q3, %y : f64 -> !gpu.fragment<8x8xf64, "c">
// CHECK-NEXT: %s1, %s3, %sd = gpu.mma_compute %r1, %r3, %pa, %qb, %rc {b_transpose} : !gpu.fragment<8x4xf64, "a">, !gpu.fragment<4x8xf64, "b">, !gpu.fragment<8x8xf64, "c"> -> !gpu.fragment<8x8xf64, "c">
// CHECK-NEXT: %t1, %t3 = gpu.mma_store %s1, %s3, %sd, %r[%j] {lead = 8 : i64} : !gpu.fragment<8x8xf64, "c">, !mem.ptr<!mem.array<? x f64>, 1>
