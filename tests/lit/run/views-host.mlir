// Buffer ops through views on the host (buffer-lower-ptr's index arithmetic), on both providers:
// a[i][j] = 6i + j (4x6 i32).
// RUN: gpu-run %s --provider interp | filecheck %s
// RUN: gpu-run %s --provider cpu | filecheck %s

func.func @main(%m0: !mem.M<0>) -> (!mem.M<0>, i32) {
  %m1, %a = buffer.init %m0 dense<[[0, 1, 2, 3, 4, 5], [6, 7, 8, 9, 10, 11], [12, 13, 14, 15, 16, 17], [18, 19, 20, 21, 22, 23]]> : tensor<4x6xi32>
  %i1 = arith.constant 1 : index
  %i2 = arith.constant 2 : index
  %x = arith.constant 100 : i32
  // Row 2 broadcast to 2x6: a write through it writes the one shared element a[2][1] ...
  %row = buffer.subview %a[2, 0] [1, 6] [1, 1] : !buffer.buf<4x6xi32> to !buffer.buf<1x6xi32, strided<[6, 1], offset: 12>>
  %b = buffer.broadcast %row : !buffer.buf<1x6xi32, strided<[6, 1], offset: 12>> to !buffer.buf<2x6xi32, strided<[0, 1], offset: 12>>
  %m2, %b1 = buffer.write %m1, %b[%i1, %i1], %x : !buffer.buf<2x6xi32, strided<[0, 1], offset: 12>>
  %m3 = buffer.print %m2, %b1 : !buffer.buf<2x6xi32, strided<[0, 1], offset: 12>>
  // CHECK:      12, 100, 14, 15, 16, 17,
  // CHECK-NEXT: 12, 100, 14, 15, 16, 17,
  // ... so a reads it back at [2][1].
  %m4 = buffer.print %m3, %a : !buffer.buf<4x6xi32>
  // CHECK-NEXT: 0, 1, 2, 3, 4, 5,
  // CHECK-NEXT: 6, 7, 8, 9, 10, 11,
  // CHECK-NEXT: 12, 100, 14, 15, 16, 17,
  // CHECK-NEXT: 18, 19, 20, 21, 22, 23,
  // A copy out of a strided slice (rows 1..3, columns 1, 4) into a dense buffer ...
  %s = buffer.subview %a[1, 1] [3, 2] [1, 3] : !buffer.buf<4x6xi32> to !buffer.buf<3x2xi32, strided<[6, 3], offset: 7>>
  %m5, %d = buffer.alloc %m4 : !buffer.buf<3x2xi32>
  %m6 = buffer.copy %m5, %d, %s : !buffer.buf<3x2xi32>, !buffer.buf<3x2xi32, strided<[6, 3], offset: 7>>
  %m7 = buffer.print %m6, %d : !buffer.buf<3x2xi32>
  // CHECK-NEXT: 7, 10,
  // CHECK-NEXT: 100, 16,
  // CHECK-NEXT: 19, 22,
  // ... and a copy of the dense buffer into the transpose of a's first 2x3 corner
  // (a[j][i] = d[i][j] for i < 3, j < 2).
  %c = buffer.subview %a[0, 0] [2, 3] [1, 1] : !buffer.buf<4x6xi32> to !buffer.buf<2x3xi32, strided<[6, 1]>>
  %t = buffer.transpose %c [1, 0] : !buffer.buf<2x3xi32, strided<[6, 1]>> to !buffer.buf<3x2xi32, strided<[1, 6]>>
  %m8 = buffer.copy %m7, %t, %d : !buffer.buf<3x2xi32, strided<[1, 6]>>, !buffer.buf<3x2xi32>
  %m9 = buffer.print %m8, %a : !buffer.buf<4x6xi32>
  // CHECK-NEXT: 7, 100, 19, 3, 4, 5,
  // CHECK-NEXT: 10, 16, 22, 9, 10, 11,
  // CHECK-NEXT: 12, 100, 14, 15, 16, 17,
  // CHECK-NEXT: 18, 19, 20, 21, 22, 23,
  // a's storage as 24 elements, read at 23 - 5 = 18; buffer.shape of a view is static.
  %flat = buffer.view %a : !buffer.buf<4x6xi32> to !buffer.buf<24xi32>
  %n = buffer.shape %t[0] : !buffer.buf<3x2xi32, strided<[1, 6]>>
  %k = arith.constant 23 : index
  %at = arith.subi %k, %n : index
  %at2 = arith.subi %at, %i2 : index
  %m10, %y = buffer.read %m9, %flat[%at2] : !buffer.buf<24xi32>
  func.return %m10, %y : !mem.M<0>, i32
  // CHECK-NEXT: 18
  // CHECK-EMPTY:
}
