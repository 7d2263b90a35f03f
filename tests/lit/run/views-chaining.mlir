// Device-resident chaining through a view: y = a·a stays on the device for the row sums s and
// for the column sums c, which reads it through a transpose (y^T[i][j] = y[j][i]).
// a = [[1, 2, 3], [4, 5, 6]], y = [[1, 4, 9], [16, 25, 36]]: s = [1 + 4 + 9, 16 + 25 + 36] =
// [14, 77], c = [1 + 16, 4 + 25, 9 + 36] = [17, 29, 45]. (The IR:
// tests/lit/passes/lower-btensor-map-reduce-views.mlir.)
// RUN: gpu-run %s --provider interp | filecheck %s
// RUN: gpu-run %s --provider cpu | filecheck %s
// RUN: gpu-run %s --provider interp -p btensor-lower-map-reduce,buffer-lower-ptr | filecheck %s

// CHECK:      14.00, 77.00,
// CHECK-NEXT: 17.00, 29.00, 45.00,
// CHECK-EMPTY:

func.func @main(%m: !mem.M<0>) -> !mem.M<0> {
  %m0, %a = buffer.init %m dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %zero = arith.constant 0.0 : f32
  %m1, %y = btensor.map_reduce %m0 ins(%a : !buffer.buf<2x3xf32>) init(%zero : f32)
      {out_rank = 2 : i64, shape = array<i64: 2, 3>, maps = [affine_map<(i, j) -> (i, j)>],
      out_map = affine_map<(i, j) -> (i, j)>} combiner {
    ^bb0(%acc: f32, %v: f32):
      %r = arith.mulf %v, %v : f32
      btensor.yield %r : f32
  } : !buffer.buf<2x3xf32>
  %m2, %s = btensor.map_reduce %m1 ins(%y : !buffer.buf<2x3xf32>) init(%zero : f32)
      {out_rank = 1 : i64, shape = array<i64: 2, 3>, maps = [affine_map<(i, j) -> (i, j)>],
      out_map = affine_map<(i) -> (i)>} combiner {
    ^bb0(%acc: f32, %v: f32):
      %r = arith.addf %acc, %v : f32
      btensor.yield %r : f32
  } : !buffer.buf<2xf32>
  %yt = buffer.transpose %y [1, 0] : !buffer.buf<2x3xf32> to !buffer.buf<3x2xf32, strided<[1, 3]>>
  %m3, %c = btensor.map_reduce %m2 ins(%yt : !buffer.buf<3x2xf32, strided<[1, 3]>>) init(%zero : f32)
      {out_rank = 1 : i64, shape = array<i64: 3, 2>, maps = [affine_map<(i, j) -> (i, j)>],
      out_map = affine_map<(i) -> (i)>} combiner {
    ^bb0(%acc: f32, %v: f32):
      %r = arith.addf %acc, %v : f32
      btensor.yield %r : f32
  } : !buffer.buf<3xf32>
  %m4 = buffer.print %m3, %s : !buffer.buf<2xf32>
  %m5 = buffer.print %m4, %c : !buffer.buf<3xf32>
  func.return %m5 : !mem.M<0>
}
