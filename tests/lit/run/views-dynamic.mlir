// Dynamic views (`?` offsets and extents) under the three executors: a row loop taking
// buffer.subview %a[%i, 0] [1, 6] [1, 1] on every iteration (printing the row, then adding 100
// to its element i through the view), a dynamic-size subview [0, %k] [4, %n], its shape, a
// copy through its transpose and a subview of it at a run-time offset.
// Computed by hand: a[r][c] = 10r + c. The loop prints the rows as they are (iteration i
// changes only row i, after printing it), then a[i][i] += 100. With k = 2, n = 3:
// s = a[0:4, 2:5] = [[2, 3, 4], [12, 13, 14], [122, 23, 24], [32, 133, 34]], its extent 1 is
// 3; d = s^T = [[2, 12, 122, 32], [3, 13, 23, 133], [4, 14, 24, 34]]; s[1:3, 1:2] = [[13], [23]].
// RUN: gpu-run %s --provider interp | filecheck %s
// RUN: gpu-run %s --provider cpu | filecheck %s
// RUN: gpu-run %s --provider interp -p "" | filecheck %s

// CHECK:      0.00, 1.00, 2.00, 3.00, 4.00, 5.00,
// CHECK-NEXT: 10.00, 11.00, 12.00, 13.00, 14.00, 15.00,
// CHECK-NEXT: 20.00, 21.00, 22.00, 23.00, 24.00, 25.00,
// CHECK-NEXT: 30.00, 31.00, 32.00, 33.00, 34.00, 35.00,
// CHECK-NEXT: 2.00, 3.00, 4.00,
// CHECK-NEXT: 12.00, 13.00, 14.00,
// CHECK-NEXT: 122.00, 23.00, 24.00,
// CHECK-NEXT: 32.00, 133.00, 34.00,
// CHECK-NEXT: n = 3
// CHECK-NEXT: 2.00, 12.00, 122.00, 32.00,
// CHECK-NEXT: 3.00, 13.00, 23.00, 133.00,
// CHECK-NEXT: 4.00, 14.00, 24.00, 34.00,
// CHECK-NEXT: 13.00,
// CHECK-NEXT: 23.00,
// CHECK-EMPTY:

func.func @main(%m: !mem.M<0>) -> !mem.M<0> {
  %m0, %a = buffer.init %m dense<[[0.0, 1.0, 2.0, 3.0, 4.0, 5.0], [10.0, 11.0, 12.0, 13.0, 14.0, 15.0], [20.0, 21.0, 22.0, 23.0, 24.0, 25.0], [30.0, 31.0, 32.0, 33.0, 34.0, 35.0]]> : tensor<4x6xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %hundred = arith.constant 100.0 : f32
  %m1 = scf.for %i = %c0 to %c4 step %c1 iter_args(%t = %m0) -> (!mem.M<0>) {
    %r = buffer.subview %a[%i, 0] [1, 6] [1, 1] : !buffer.buf<4x6xf32> to !buffer.buf<1x6xf32, strided<[6, 1], offset: ?>>
    %t1 = buffer.print %t, %r : !buffer.buf<1x6xf32, strided<[6, 1], offset: ?>>
    %t2, %x = buffer.read %t1, %r[%c0, %i] : !buffer.buf<1x6xf32, strided<[6, 1], offset: ?>>
    %y = arith.addf %x, %hundred : f32
    %t3, %r1 = buffer.write %t2, %r[%c0, %i], %y : !buffer.buf<1x6xf32, strided<[6, 1], offset: ?>>
    scf.yield %t3 : !mem.M<0>
  }
  %k = arith.constant 2 : index
  %n = arith.constant 3 : index
  %s = buffer.subview %a[0, %k] [4, %n] [1, 1] : !buffer.buf<4x6xf32> to !buffer.buf<4x?xf32, strided<[6, 1], offset: ?>>
  %m2 = buffer.print %m1, %s : !buffer.buf<4x?xf32, strided<[6, 1], offset: ?>>
  %w = buffer.shape %s[1] : !buffer.buf<4x?xf32, strided<[6, 1], offset: ?>>
  printf.print_format "n = {}\n", %w : index
  %st = buffer.transpose %s [1, 0] : !buffer.buf<4x?xf32, strided<[6, 1], offset: ?>> to !buffer.buf<?x4xf32, strided<[1, 6], offset: ?>>
  %m3, %d = buffer.alloc %m2 : !buffer.buf<3x4xf32>
  %m4 = buffer.copy %m3, %d, %st : !buffer.buf<3x4xf32>, !buffer.buf<?x4xf32, strided<[1, 6], offset: ?>>
  %m5 = buffer.print %m4, %d : !buffer.buf<3x4xf32>
  %ss = buffer.subview %s[%c1, 1] [2, 1] [1, 1] : !buffer.buf<4x?xf32, strided<[6, 1], offset: ?>> to !buffer.buf<2x1xf32, strided<[6, 1], offset: ?>>
  %m6 = buffer.print %m5, %ss : !buffer.buf<2x1xf32, strided<[6, 1], offset: ?>>
  func.return %m6 : !mem.M<0>
}
