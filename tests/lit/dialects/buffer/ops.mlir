// RUN: gpu-opt %s | filecheck %s
// RUN: ROUNDTRIP
// RUN: gpu-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// Every op and type of the buffer dialect in its custom syntax: static, dynamic and rank-0
// buffers; the generic form is IR.md's (operand order, `value` and `dim` properties).

func.func @buffers(%m0: !mem.M<0>, %n: index, %i: index, %f: f32, %x: i32, %types: !buffer.buf<1x2x3x4xi1>, %h: !buffer.buf<?x?xf16>, %k: !buffer.buf<0xindex>) -> !mem.M<0> {
  // buffer.alloc: static, with one extent per '?', rank 0.
  %a0, %b0 = buffer.alloc %m0 : !buffer.buf<4x8xf32>
  %a1, %b1 = buffer.alloc %a0(%n, %n) : !buffer.buf<?x4x?xi32>
  %a2, %b2 = buffer.alloc %a1 {tag} : !buffer.buf<f64>
  %a3, %b3 = buffer.alloc %a2(%n) {tag} : !buffer.buf<?xf32>
  // buffer.lit and buffer.init.
  %l0, %c0 = buffer.lit %a3, %f : f32 -> !buffer.buf<4x8xf32>
  %l1, %c1 = buffer.lit %l0, %x {tag} : i32 -> !buffer.buf<i32>
  %i0, %d0 = buffer.init %l1 dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>
  %i1, %d1 = buffer.init %i0 dense<1.500000e+00> : tensor<3xf32> {tag}
  %i2, %d2 = buffer.init %i1 dense<7> : tensor<i64>
  %i3, %d3 = buffer.init %i2 dense<[[[1.000000e+00], [2.000000e+00]]]> : tensor<1x2x1xf64>
  // buffer.read and buffer.write, of every rank.
  %r0, %v0 = buffer.read %i3, %b0[%i, %i] : !buffer.buf<4x8xf32>
  %r1, %v1 = buffer.read %r0, %b2[] : !buffer.buf<f64>
  %r2, %v2 = buffer.read %r1, %b3[%i] {tag} : !buffer.buf<?xf32>
  %w0, %e0 = buffer.write %r2, %b1[%i, %i, %i], %x : !buffer.buf<?x4x?xi32>
  %w1, %e1 = buffer.write %w0, %b2[], %v1 : !buffer.buf<f64>
  %w2, %e2 = buffer.write %w1, %b3[%i], %v2 {tag} : !buffer.buf<?xf32>
  // buffer.shape of a dynamic and a static dimension.
  %s0 = buffer.shape %b1[2] : !buffer.buf<?x4x?xi32>
  %s1 = buffer.shape %b0[0] {tag} : !buffer.buf<4x8xf32>
  // buffer.copy and buffer.print.
  %k0 = buffer.copy %w2, %b0, %c0 : !buffer.buf<4x8xf32>
  %k1 = buffer.copy %k0, %e2, %b3 {tag} : !buffer.buf<?xf32>
  %p0 = buffer.print %k1, %e0 : !buffer.buf<?x4x?xi32>
  %p1 = buffer.print %p0, %e1 {tag} : !buffer.buf<f64>
  func.return %p1 : !mem.M<0>
}

// CHECK:      builtin.module {
// CHECK-NEXT:   func.func @buffers(%m0: !mem.M<0>, %n: index, %i: index, %f: f32, %x: i32, %types: !buffer.buf<1x2x3x4xi1>, %h: !buffer.buf<?x?xf16>, %k: !buffer.buf<0xindex>) -> !mem.M<0> {
// CHECK-NEXT:     %a0, %b0 = buffer.alloc %m0 : !buffer.buf<4x8xf32>
// CHECK-NEXT:     %a1, %b1 = buffer.alloc %a0(%n, %n) : !buffer.buf<?x4x?xi32>
// CHECK-NEXT:     %a2, %b2 = buffer.alloc %a1 {tag} : !buffer.buf<f64>
// CHECK-NEXT:     %a3, %b3 = buffer.alloc %a2(%n) {tag} : !buffer.buf<?xf32>
// CHECK-NEXT:     %l0, %c0 = buffer.lit %a3, %f : f32 -> !buffer.buf<4x8xf32>
// CHECK-NEXT:     %l1, %c1 = buffer.lit %l0, %x {tag} : i32 -> !buffer.buf<i32>
// CHECK-NEXT:     %i0, %d0 = buffer.init %l1 dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>
// CHECK-NEXT:     %i1, %d1 = buffer.init %i0 dense<1.500000e+00> : tensor<3xf32> {tag}
// CHECK-NEXT:     %i2, %d2 = buffer.init %i1 dense<7> : tensor<i64>
// CHECK-NEXT:     %i3, %d3 = buffer.init %i2 dense<[[[1.000000e+00], [2.000000e+00]]]> : tensor<1x2x1xf64>
// CHECK-NEXT:     %r0, %v0 = buffer.read %i3, %b0[%i, %i] : !buffer.buf<4x8xf32>
// CHECK-NEXT:     %r1, %v1 = buffer.read %r0, %b2[] : !buffer.buf<f64>
// CHECK-NEXT:     %r2, %v2 = buffer.read %r1, %b3[%i] {tag} : !buffer.buf<?xf32>
// CHECK-NEXT:     %w0, %e0 = buffer.write %r2, %b1[%i, %i, %i], %x : !buffer.buf<?x4x?xi32>
// CHECK-NEXT:     %w1, %e1 = buffer.write %w0, %b2[], %v1 : !buffer.buf<f64>
// CHECK-NEXT:     %w2, %e2 = buffer.write %w1, %b3[%i], %v2 {tag} : !buffer.buf<?xf32>
// CHECK-NEXT:     %s0 = buffer.shape %b1[2] : !buffer.buf<?x4x?xi32>
// CHECK-NEXT:     %s1 = buffer.shape %b0[0] {tag} : !buffer.buf<4x8xf32>
// CHECK-NEXT:     %k0 = buffer.copy %w2, %b0, %c0 : !buffer.buf<4x8xf32>
// CHECK-NEXT:     %k1 = buffer.copy %k0, %e2, %b3 {tag} : !buffer.buf<?xf32>
// CHECK-NEXT:     %p0 = buffer.print %k1, %e0 : !buffer.buf<?x4x?xi32>
// CHECK-NEXT:     %p1 = buffer.print %p0, %e1 {tag} : !buffer.buf<f64>
// CHECK-NEXT:     func.return %p1 : !mem.M<0>
// CHECK-NEXT:   }
// CHECK-NEXT: }

// GENERIC:      "builtin.module"() ({
// GENERIC-NEXT:   "func.func"() <{sym_name = "buffers", function_type = (!mem.M<0>, index, index, f32, i32, !buffer.buf<1x2x3x4xi1>, !buffer.buf<?x?xf16>, !buffer.buf<0xindex>) -> !mem.M<0>}> ({
// GENERIC-NEXT:   ^bb0(%m0: !mem.M<0>, %n: index, %i: index, %f: f32, %x: i32, %types: !buffer.buf<1x2x3x4xi1>, %h: !buffer.buf<?x?xf16>, %k: !buffer.buf<0xindex>):
// GENERIC-NEXT:     %a0, %b0 = "buffer.alloc"(%m0) : (!mem.M<0>) -> (!mem.M<0>, !buffer.buf<4x8xf32>)
// GENERIC-NEXT:     %a1, %b1 = "buffer.alloc"(%a0, %n, %n) : (!mem.M<0>, index, index) -> (!mem.M<0>, !buffer.buf<?x4x?xi32>)
// GENERIC-NEXT:     %a2, %b2 = "buffer.alloc"(%a1) {tag} : (!mem.M<0>) -> (!mem.M<0>, !buffer.buf<f64>)
// GENERIC-NEXT:     %a3, %b3 = "buffer.alloc"(%a2, %n) {tag} : (!mem.M<0>, index) -> (!mem.M<0>, !buffer.buf<?xf32>)
// GENERIC-NEXT:     %l0, %c0 = "buffer.lit"(%a3, %f) : (!mem.M<0>, f32) -> (!mem.M<0>, !buffer.buf<4x8xf32>)
// GENERIC-NEXT:     %l1, %c1 = "buffer.lit"(%l0, %x) {tag} : (!mem.M<0>, i32) -> (!mem.M<0>, !buffer.buf<i32>)
// GENERIC-NEXT:     %i0, %d0 = "buffer.init"(%l1) <{value = dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>}> : (!mem.M<0>) -> (!mem.M<0>, !buffer.buf<2x2xi32>)
// GENERIC-NEXT:     %i1, %d1 = "buffer.init"(%i0) <{value = dense<1.500000e+00> : tensor<3xf32>}> {tag} : (!mem.M<0>) -> (!mem.M<0>, !buffer.buf<3xf32>)
// GENERIC-NEXT:     %i2, %d2 = "buffer.init"(%i1) <{value = dense<7> : tensor<i64>}> : (!mem.M<0>) -> (!mem.M<0>, !buffer.buf<i64>)
// GENERIC-NEXT:     %i3, %d3 = "buffer.init"(%i2) <{value = dense<[[[1.000000e+00], [2.000000e+00]]]> : tensor<1x2x1xf64>}> : (!mem.M<0>) -> (!mem.M<0>, !buffer.buf<1x2x1xf64>)
// GENERIC-NEXT:     %r0, %v0 = "buffer.read"(%i3, %b0, %i, %i) : (!mem.M<0>, !buffer.buf<4x8xf32>, index, index) -> (!mem.M<0>, f32)
// GENERIC-NEXT:     %r1, %v1 = "buffer.read"(%r0, %b2) : (!mem.M<0>, !buffer.buf<f64>) -> (!mem.M<0>, f64)
// GENERIC-NEXT:     %r2, %v2 = "buffer.read"(%r1, %b3, %i) {tag} : (!mem.M<0>, !buffer.buf<?xf32>, index) -> (!mem.M<0>, f32)
// GENERIC-NEXT:     %w0, %e0 = "buffer.write"(%r2, %b1, %i, %i, %i, %x) : (!mem.M<0>, !buffer.buf<?x4x?xi32>, index, index, index, i32) -> (!mem.M<0>, !buffer.buf<?x4x?xi32>)
// GENERIC-NEXT:     %w1, %e1 = "buffer.write"(%w0, %b2, %v1) : (!mem.M<0>, !buffer.buf<f64>, f64) -> (!mem.M<0>, !buffer.buf<f64>)
// GENERIC-NEXT:     %w2, %e2 = "buffer.write"(%w1, %b3, %i, %v2) {tag} : (!mem.M<0>, !buffer.buf<?xf32>, index, f32) -> (!mem.M<0>, !buffer.buf<?xf32>)
// GENERIC-NEXT:     %s0 = "buffer.shape"(%b1) <{dim = 2 : i64}> : (!buffer.buf<?x4x?xi32>) -> index
// GENERIC-NEXT:     %s1 = "buffer.shape"(%b0) <{dim = 0 : i64}> {tag} : (!buffer.buf<4x8xf32>) -> index
// GENERIC-NEXT:     %k0 = "buffer.copy"(%w2, %b0, %c0) : (!mem.M<0>, !buffer.buf<4x8xf32>, !buffer.buf<4x8xf32>) -> !mem.M<0>
// GENERIC-NEXT:     %k1 = "buffer.copy"(%k0, %e2, %b3) {tag} : (!mem.M<0>, !buffer.buf<?xf32>, !buffer.buf<?xf32>) -> !mem.M<0>
// GENERIC-NEXT:     %p0 = "buffer.print"(%k1, %e0) : (!mem.M<0>, !buffer.buf<?x4x?xi32>) -> !mem.M<0>
// GENERIC-NEXT:     %p1 = "buffer.print"(%p0, %e1) {tag} : (!mem.M<0>, !buffer.buf<f64>) -> !mem.M<0>
// GENERIC-NEXT:     "func.return"(%p1) : (!mem.M<0>) -> ()
// GENERIC-NEXT:   }) : () -> ()
// GENERIC-NEXT: }) : () -> ()
