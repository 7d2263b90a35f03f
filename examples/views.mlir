// Views: a 4x6 matrix a[i][j] = 6i + j, seen through layouts that allocate nothing.
//
//   %t   = transpose(a)                       6x4, strided<[1, 6]>
//   %odd = a[:, 0:6:2], every other column     4x3, strided<[6, 2]>
//   %row = broadcast(r) of r = [10, 20, 30]    4x3, strided<[0, 1]>
//   %v   = a's storage seen as 2x3 from element 1 with strides 12 and 2:
//          [[1, 3, 5], [13, 15, 17]]
//
// It prints %t and %v (buffer.print of a view reads through its layout), then two
// btensor.map_reduce results:
//   %sum   = %odd + %row, elementwise:     [[10, 22, 34], [16, 28, 40], [22, 34, 46], [28, 40, 52]]
//   %total = the row sums of %t (the column sums of a): 36 + 4j = [36, 40, 44, 48, 52, 56]
//
// On the GPU path (lower-btensor-map-reduce) transfers stay dense: %a and %r are copied to the
// device as they are, once each, and the kernels read them through the layouts:
//
//   gpu-opt examples/views.mlir -p lower-btensor-map-reduce    # kernel loads at (j, i), (i, 2j)
//   gpu-run examples/views.mlir --provider interp              # or cpu

func.func @main(%m: !mem.M<0>) -> !mem.M<0> {
  %m1, %a = buffer.init %m dense<[[0.0, 1.0, 2.0, 3.0, 4.0, 5.0], [6.0, 7.0, 8.0, 9.0, 10.0, 11.0],
      [12.0, 13.0, 14.0, 15.0, 16.0, 17.0], [18.0, 19.0, 20.0, 21.0, 22.0, 23.0]]> : tensor<4x6xf32>
  %m2, %r = buffer.init %m1 dense<[10.0, 20.0, 30.0]> : tensor<3xf32>
  %t = buffer.transpose %a [1, 0] : !buffer.buf<4x6xf32> to !buffer.buf<6x4xf32, strided<[1, 6]>>
  %odd = buffer.subview %a[0, 0] [4, 3] [1, 2]
      : !buffer.buf<4x6xf32> to !buffer.buf<4x3xf32, strided<[6, 2]>>
  %row = buffer.broadcast %r : !buffer.buf<3xf32> to !buffer.buf<4x3xf32, strided<[0, 1]>>
  %v = buffer.view %a : !buffer.buf<4x6xf32> to !buffer.buf<2x3xf32, strided<[12, 2], offset: 1>>
  %m3 = buffer.print %m2, %t : !buffer.buf<6x4xf32, strided<[1, 6]>>
  %m4 = buffer.print %m3, %v : !buffer.buf<2x3xf32, strided<[12, 2], offset: 1>>
  %zero = arith.constant 0.0 : f32
  %m5, %sum = btensor.map_reduce %m4
      ins(%odd, %row : !buffer.buf<4x3xf32, strided<[6, 2]>>, !buffer.buf<4x3xf32, strided<[0, 1]>>)
      init(%zero : f32) {out_rank = 2 : i64, shape = array<i64: 4, 3>,
      maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
      out_map = affine_map<(i, j) -> (i, j)>} combiner {
    ^bb0(%acc: f32, %x: f32, %y: f32):
      %s = arith.addf %x, %y : f32
      btensor.yield %s : f32
  } : !buffer.buf<4x3xf32>
  %m6, %total = btensor.map_reduce %m5 ins(%t : !buffer.buf<6x4xf32, strided<[1, 6]>>)
      init(%zero : f32) {out_rank = 1 : i64, shape = array<i64: 6, 4>,
      maps = [affine_map<(i, k) -> (i, k)>], out_map = affine_map<(i) -> (i)>} combiner {
    ^bb0(%acc: f32, %x: f32):
      %s = arith.addf %acc, %x : f32
      btensor.yield %s : f32
  } : !buffer.buf<6xf32>
  %m7 = buffer.print %m6, %sum : !buffer.buf<4x3xf32>
  %m8 = buffer.print %m7, %total : !buffer.buf<6xf32>
  func.return %m8 : !mem.M<0>
}
