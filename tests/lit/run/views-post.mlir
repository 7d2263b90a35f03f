// btensor.map_reduce_post over views of one buffer and a broadcast post input:
// o[i][j] = Σ_k a^T[i][k] · a[k][2j + 1] + r[i], a[k][i] = 4k + i (3x4), r = [1, 2, 3, 4].
// By hand: o[0][0] = 0·1 + 4·5 + 8·9 + 1 = 93, o[0][1] = 0·3 + 4·7 + 8·11 + 1 = 117,
// o[3][1] = 3·3 + 7·7 + 11·11 + 4 = 183; each row adds Σ_k a[k][2j+1] + 1 to the one before
// (15 + 1 = 16, 21 + 1 = 22).
// RUN: gpu-run %s --provider interp | filecheck %s
// RUN: gpu-run %s --provider cpu | filecheck %s
// RUN: gpu-run %s --provider interp -p btensor-lower-map-reduce,buffer-lower-ptr | filecheck %s

// CHECK:      93.00, 117.00,
// CHECK-NEXT: 109.00, 139.00,
// CHECK-NEXT: 125.00, 161.00,
// CHECK-NEXT: 141.00, 183.00,
// CHECK-EMPTY:

func.func @main(%m: !mem.M<0>) -> !mem.M<0> {
  %m0, %a = buffer.init %m dense<[[0.0, 1.0, 2.0, 3.0], [4.0, 5.0, 6.0, 7.0], [8.0, 9.0, 10.0, 11.0]]> : tensor<3x4xf32>
  %m1, %r = buffer.init %m0 dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %t = buffer.transpose %a [1, 0] : !buffer.buf<3x4xf32> to !buffer.buf<4x3xf32, strided<[1, 4]>>
  %c = buffer.subview %a[0, 1] [3, 2] [1, 2] : !buffer.buf<3x4xf32> to !buffer.buf<3x2xf32, strided<[4, 2], offset: 1>>
  %row = buffer.broadcast %r : !buffer.buf<4xf32> to !buffer.buf<2x4xf32, strided<[0, 1]>>
  %zero = arith.constant 0.0 : f32
  %m2, %o = btensor.map_reduce_post %m1
      ins(%t, %c : !buffer.buf<4x3xf32, strided<[1, 4]>>, !buffer.buf<3x2xf32, strided<[4, 2], offset: 1>>)
      post_ins(%row : !buffer.buf<2x4xf32, strided<[0, 1]>>) init(%zero : f32)
      {out_rank = 2 : i64, shape = array<i64: 4, 2, 3>,
      maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>],
      post_maps = [affine_map<(i, j) -> (j, i)>], out_map = affine_map<(i, j) -> (i, j)>} combiner {
    ^bb0(%acc: f32, %x: f32, %y: f32):
      %p = arith.mulf %x, %y : f32
      %s = arith.addf %acc, %p : f32
      btensor.yield %s : f32
  } epilogue {
    ^bb0(%acc: f32, %b: f32):
      %s = arith.addf %acc, %b : f32
      btensor.yield %s : f32
  } : !buffer.buf<4x2xf32>
  %m3 = buffer.print %m2, %o : !buffer.buf<4x2xf32>
  func.return %m3 : !mem.M<0>
}
