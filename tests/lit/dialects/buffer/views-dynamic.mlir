// RUN: gpu-opt %s | filecheck %s
// RUN: ROUNDTRIP
// RUN: gpu-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC
// RUN: gpu-opt %s --print-op-generic | gpu-opt | filecheck %s

// Dynamic views: buffer.subview with `index` offsets and sizes (MLIR's mixed lists), `?` in
// the result type's offset and extents; a transpose and a subview of a dynamic view.

func.func @dynamic(%m0: !mem.M<0>, %i: index, %n: index, %a: !buffer.buf<4x6xf32>) -> !mem.M<0> {
  %r = buffer.subview %a[%i, 0] [1, %n] [1, 1] : !buffer.buf<4x6xf32> to !buffer.buf<1x?xf32, strided<[6, 1], offset: ?>>
  %t = buffer.transpose %r [1, 0] : !buffer.buf<1x?xf32, strided<[6, 1], offset: ?>> to !buffer.buf<?x1xf32, strided<[1, 6], offset: ?>>
  %s = buffer.subview %a[0, %i] [4, 2] [1, 2] {tag} : !buffer.buf<4x6xf32> to !buffer.buf<4x2xf32, strided<[6, 2], offset: ?>>
  %k = buffer.subview %a[1, 2] [%n, 2] [1, 1] : !buffer.buf<4x6xf32> to !buffer.buf<?x2xf32, strided<[6, 1], offset: 8>>
  %kk = buffer.subview %k[%i, 0] [2, 1] [1, 1] : !buffer.buf<?x2xf32, strided<[6, 1], offset: 8>> to !buffer.buf<2x1xf32, strided<[6, 1], offset: ?>>
  %m1, %x = buffer.read %m0, %t[%i, %i] : !buffer.buf<?x1xf32, strided<[1, 6], offset: ?>>
  %m2, %w = buffer.write %m1, %s[%i, %i], %x : !buffer.buf<4x2xf32, strided<[6, 2], offset: ?>>
  %e = buffer.shape %k[0] : !buffer.buf<?x2xf32, strided<[6, 1], offset: 8>>
  %m3 = buffer.copy %m2, %r, %r : !buffer.buf<1x?xf32, strided<[6, 1], offset: ?>>
  %m4 = buffer.print %m3, %kk : !buffer.buf<2x1xf32, strided<[6, 1], offset: ?>>
  func.return %m4 : !mem.M<0>
}

// CHECK:      func.func @dynamic(%m0: !mem.M<0>, %i: index, %n: index, %a: !buffer.buf<4x6xf32>) -> !mem.M<0> {
// CHECK-NEXT:   %r = buffer.subview %a[%i, 0] [1, %n] [1, 1] : !buffer.buf<4x6xf32> to !buffer.buf<1x?xf32, strided<[6, 1], offset: ?>>
// CHECK-NEXT:   %t = buffer.transpose %r [1, 0] : !buffer.buf<1x?xf32, strided<[6, 1], offset: ?>> to !buffer.buf<?x1xf32, strided<[1, 6], offset: ?>>
// CHECK-NEXT:   %s = buffer.subview %a[0, %i] [4, 2] [1, 2] {tag} : !buffer.buf<4x6xf32> to !buffer.buf<4x2xf32, strided<[6, 2], offset: ?>>
// CHECK-NEXT:   %k = buffer.subview %a[1, 2] [%n, 2] [1, 1] : !buffer.buf<4x6xf32> to !buffer.buf<?x2xf32, strided<[6, 1], offset: 8>>
// CHECK-NEXT:   %kk = buffer.subview %k[%i, 0] [2, 1] [1, 1] : !buffer.buf<?x2xf32, strided<[6, 1], offset: 8>> to !buffer.buf<2x1xf32, strided<[6, 1], offset: ?>>
// CHECK-NEXT:   %m1, %x = buffer.read %m0, %t[%i, %i] : !buffer.buf<?x1xf32, strided<[1, 6], offset: ?>>
// CHECK-NEXT:   %m2, %w = buffer.write %m1, %s[%i, %i], %x : !buffer.buf<4x2xf32, strided<[6, 2], offset: ?>>
// CHECK-NEXT:   %e = buffer.shape %k[0] : !buffer.buf<?x2xf32, strided<[6, 1], offset: 8>>
// CHECK-NEXT:   %m3 = buffer.copy %m2, %r, %r : !buffer.buf<1x?xf32, strided<[6, 1], offset: ?>>
// CHECK-NEXT:   %m4 = buffer.print %m3, %kk : !buffer.buf<2x1xf32, strided<[6, 1], offset: ?>>

// GENERIC:      %r = "buffer.subview"(%a, %i, %n) <{static_offsets = array<i64: -9223372036854775808, 0>, static_sizes = array<i64: 1, -9223372036854775808>, static_strides = array<i64: 1, 1>, operandSegmentSizes = array<i32: 1, 1, 1>}> : (!buffer.buf<4x6xf32>, index, index) -> !buffer.buf<1x?xf32, strided<[6, 1], offset: ?>>
// GENERIC:      %s = "buffer.subview"(%a, %i) <{static_offsets = array<i64: 0, -9223372036854775808>, static_sizes = array<i64: 4, 2>, static_strides = array<i64: 1, 2>, operandSegmentSizes = array<i32: 1, 1, 0>}> {tag} : (!buffer.buf<4x6xf32>, index) -> !buffer.buf<4x2xf32, strided<[6, 2], offset: ?>>
// GENERIC:      %k = "buffer.subview"(%a, %n) <{static_offsets = array<i64: 1, 2>, static_sizes = array<i64: -9223372036854775808, 2>, static_strides = array<i64: 1, 1>, operandSegmentSizes = array<i32: 1, 0, 1>}> : (!buffer.buf<4x6xf32>, index) -> !buffer.buf<?x2xf32, strided<[6, 1], offset: 8>>
