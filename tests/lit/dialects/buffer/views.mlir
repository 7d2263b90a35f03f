// RUN: gpu-opt %s | filecheck %s
// RUN: ROUNDTRIP
// RUN: gpu-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// Strided buffer types and the view ops in their custom syntax. A layout that addresses like
// the dense row-major one is dropped: `strided<[6, 1]>` on 2x6 is !buffer.buf<2x6xf32>.

func.func @views(%m0: !mem.M<0>, %i: index, %f: f32, %a: !buffer.buf<4x6xf32>, %s: !buffer.buf<f32>, %dense: !buffer.buf<2x6xf32, strided<[6, 1]>>, %one: !buffer.buf<1x6xf32, strided<[99, 1]>>) -> !mem.M<0> {
  %t = buffer.transpose %a [1, 0] : !buffer.buf<4x6xf32> to !buffer.buf<6x4xf32, strided<[1, 6]>>
  %c = buffer.subview %a[0, 1] [4, 3] [1, 2] {tag} : !buffer.buf<4x6xf32> to !buffer.buf<4x3xf32, strided<[6, 2], offset: 1>>
  %r = buffer.subview %a[1, 0] [2, 6] [1, 1] : !buffer.buf<4x6xf32> to !buffer.buf<2x6xf32, strided<[6, 1], offset: 6>>
  %d = buffer.subview %a[0, 0] [2, 6] [1, 1] : !buffer.buf<4x6xf32> to !buffer.buf<2x6xf32>
  %cc = buffer.subview %c[1, 0] [3, 2] [1, 2] : !buffer.buf<4x3xf32, strided<[6, 2], offset: 1>> to !buffer.buf<3x2xf32, strided<[6, 4], offset: 7>>
  %row = buffer.subview %a[3, 0] [1, 6] [1, 1] : !buffer.buf<4x6xf32> to !buffer.buf<1x6xf32, strided<[6, 1], offset: 18>>
  %b = buffer.broadcast %row : !buffer.buf<1x6xf32, strided<[6, 1], offset: 18>> to !buffer.buf<2x4x6xf32, strided<[0, 0, 1], offset: 18>>
  %bs = buffer.broadcast %s {tag} : !buffer.buf<f32> to !buffer.buf<3x2xf32, strided<[0, 0]>>
  %v = buffer.view %a : !buffer.buf<4x6xf32> to !buffer.buf<3x2xf32, strided<[8, 2], offset: 3>>
  %flat = buffer.view %a : !buffer.buf<4x6xf32> to !buffer.buf<24xf32>
  %m1, %x = buffer.read %m0, %t[%i, %i] : !buffer.buf<6x4xf32, strided<[1, 6]>>
  %m2, %w = buffer.write %m1, %b[%i, %i, %i], %x : !buffer.buf<2x4x6xf32, strided<[0, 0, 1], offset: 18>>
  %n = buffer.shape %cc[1] : !buffer.buf<3x2xf32, strided<[6, 4], offset: 7>>
  %m3 = buffer.copy %m2, %c, %c : !buffer.buf<4x3xf32, strided<[6, 2], offset: 1>>
  %m4 = buffer.copy %m3, %d, %r : !buffer.buf<2x6xf32>, !buffer.buf<2x6xf32, strided<[6, 1], offset: 6>>
  %m5 = buffer.print %m4, %v : !buffer.buf<3x2xf32, strided<[8, 2], offset: 3>>
  func.return %m5 : !mem.M<0>
}

// CHECK:      func.func @views(%m0: !mem.M<0>, %i: index, %f: f32, %a: !buffer.buf<4x6xf32>, %s: !buffer.buf<f32>, %dense: !buffer.buf<2x6xf32>, %one: !buffer.buf<1x6xf32>) -> !mem.M<0> {
// CHECK-NEXT:   %t = buffer.transpose %a [1, 0] : !buffer.buf<4x6xf32> to !buffer.buf<6x4xf32, strided<[1, 6]>>
// CHECK-NEXT:   %c = buffer.subview %a[0, 1] [4, 3] [1, 2] {tag} : !buffer.buf<4x6xf32> to !buffer.buf<4x3xf32, strided<[6, 2], offset: 1>>
// CHECK-NEXT:   %r = buffer.subview %a[1, 0] [2, 6] [1, 1] : !buffer.buf<4x6xf32> to !buffer.buf<2x6xf32, strided<[6, 1], offset: 6>>
// CHECK-NEXT:   %d = buffer.subview %a[0, 0] [2, 6] [1, 1] : !buffer.buf<4x6xf32> to !buffer.buf<2x6xf32>
// CHECK-NEXT:   %cc = buffer.subview %c[1, 0] [3, 2] [1, 2] : !buffer.buf<4x3xf32, strided<[6, 2], offset: 1>> to !buffer.buf<3x2xf32, strided<[6, 4], offset: 7>>
// CHECK-NEXT:   %row = buffer.subview %a[3, 0] [1, 6] [1, 1] : !buffer.buf<4x6xf32> to !buffer.buf<1x6xf32, strided<[6, 1], offset: 18>>
// CHECK-NEXT:   %b = buffer.broadcast %row : !buffer.buf<1x6xf32, strided<[6, 1], offset: 18>> to !buffer.buf<2x4x6xf32, strided<[0, 0, 1], offset: 18>>
// CHECK-NEXT:   %bs = buffer.broadcast %s {tag} : !buffer.buf<f32> to !buffer.buf<3x2xf32, strided<[0, 0]>>
// CHECK-NEXT:   %v = buffer.view %a : !buffer.buf<4x6xf32> to !buffer.buf<3x2xf32, strided<[8, 2], offset: 3>>
// CHECK-NEXT:   %flat = buffer.view %a : !buffer.buf<4x6xf32> to !buffer.buf<24xf32>
// CHECK-NEXT:   %m1, %x = buffer.read %m0, %t[%i, %i] : !buffer.buf<6x4xf32, strided<[1, 6]>>
// CHECK-NEXT:   %m2, %w = buffer.write %m1, %b[%i, %i, %i], %x : !buffer.buf<2x4x6xf32, strided<[0, 0, 1], offset: 18>>
// CHECK-NEXT:   %n = buffer.shape %cc[1] : !buffer.buf<3x2xf32, strided<[6, 4], offset: 7>>
// CHECK-NEXT:   %m3 = buffer.copy %m2, %c, %c : !buffer.buf<4x3xf32, strided<[6, 2], offset: 1>>
// CHECK-NEXT:   %m4 = buffer.copy %m3, %d, %r : !buffer.buf<2x6xf32>, !buffer.buf<2x6xf32, strided<[6, 1], offset: 6>>
// CHECK-NEXT:   %m5 = buffer.print %m4, %v : !buffer.buf<3x2xf32, strided<[8, 2], offset: 3>>
// CHECK-NEXT:   func.return %m5 : !mem.M<0>
// CHECK-NEXT: }

// GENERIC:      %t = "buffer.transpose"(%a) <{permutation = array<i64: 1, 0>}> : (!buffer.buf<4x6xf32>) -> !buffer.buf<6x4xf32, strided<[1, 6]>>
// GENERIC-NEXT: %c = "buffer.subview"(%a) <{static_offsets = array<i64: 0, 1>, static_sizes = array<i64: 4, 3>, static_strides = array<i64: 1, 2>, operandSegmentSizes = array<i32: 1, 0, 0>}> {tag} : (!buffer.buf<4x6xf32>) -> !buffer.buf<4x3xf32, strided<[6, 2], offset: 1>>
// GENERIC:      %b = "buffer.broadcast"(%row) : (!buffer.buf<1x6xf32, strided<[6, 1], offset: 18>>) -> !buffer.buf<2x4x6xf32, strided<[0, 0, 1], offset: 18>>
// GENERIC:      %v = "buffer.view"(%a) : (!buffer.buf<4x6xf32>) -> !buffer.buf<3x2xf32, strided<[8, 2], offset: 3>>
// GENERIC:      %m4 = "buffer.copy"(%m3, %d, %r) : (!mem.M<0>, !buffer.buf<2x6xf32>, !buffer.buf<2x6xf32, strided<[6, 1], offset: 6>>) -> !mem.M<0>
