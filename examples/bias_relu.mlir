// A dense layer, relu(x @ w + bias), as one btensor.map_reduce_post: the combiner accumulates
// the products over k, the epilogue adds the bias (a post input, read at post_maps(i, j) = (j))
// and clamps at zero. The result is printed one row per line:
//
//   4, 0, 0, 8,
//   0, 13, 9, 0,
//
//   gpu-opt examples/bias_relu.mlir -p lower-btensor-map-reduce   # a kernel launch
//   gpu-opt examples/bias_relu.mlir -p btensor-lower-map-reduce   # loops on the host

func.func @main(%m: !mem.M<0>) -> !mem.M<0> {
  %m1, %x = buffer.init %m dense<[[1, -2, 3], [-4, 5, -6]]> : tensor<2x3xi32>
  %m2, %w = buffer.init %m1 dense<[[1, 0, -1, 2], [0, 1, 1, -1], [2, -1, 0, 1]]> : tensor<3x4xi32>
  %m3, %bias = buffer.init %m2 dense<[-3, 2, 0, 1]> : tensor<4xi32>
  %zero = arith.constant 0 : i32
  %m4, %y = btensor.map_reduce_post %m3 ins(%x, %w : !buffer.buf<2x3xi32>, !buffer.buf<3x4xi32>)
      post_ins(%bias : !buffer.buf<4xi32>) init(%zero : i32)
      {out_rank = 2 : i64, shape = array<i64: 2, 4, 3>,
      maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>],
      post_maps = [affine_map<(i, j) -> (j)>],
      out_map = affine_map<(i, j) -> (i, j)>} combiner {
    ^bb0(%acc: i32, %a: i32, %b: i32):
      %p = arith.muli %a, %b : i32
      %s = arith.addi %acc, %p : i32
      btensor.yield %s : i32
  } epilogue {
    ^bb0(%acc: i32, %c: i32):
      %z = arith.constant 0 : i32
      %v = arith.addi %acc, %c : i32
      %r = arith.maxsi %v, %z : i32
      btensor.yield %r : i32
  } : !buffer.buf<2x4xi32>
  %m5 = buffer.print %m4, %y : !buffer.buf<2x4xi32>
  func.return %m5 : !mem.M<0>
}
