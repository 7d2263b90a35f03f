// A 4x8 @ 8x4 matrix product as one btensor.map_reduce (MimIR's btensor.product_2d): the loop box
// is (i, j, k) = 4 x 4 x 8, the first two extents are the output, k is reduced. The product is
// printed one row per line:
//
//   -2.25, 4.50, -2.50, 0.50,
//   -8.25, 10.50, -4.50, 0.50,
//   -14.25, 16.50, -6.50, 0.50,
//   -20.25, 22.50, -8.50, 0.50,
//
//   gpu-opt examples/matmul.mlir -p lower-btensor-map-reduce   # a kernel launch per map_reduce
//   gpu-opt examples/matmul.mlir -p btensor-lower-map-reduce   # loops on the host
//   gpu-opt examples/matmul.mlir -p btensor-lower-map-reduce,buffer-lower-ptr   # mem ops only

func.func @main(%m: !mem.M<0>) -> !mem.M<0> {
  %m1, %a = buffer.init %m dense<[[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0],
                                  [9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0],
                                  [17.0, 18.0, 19.0, 20.0, 21.0, 22.0, 23.0, 24.0],
                                  [25.0, 26.0, 27.0, 28.0, 29.0, 30.0, 31.0, 32.0]]> : tensor<4x8xf32>
  %m2, %b = buffer.init %m1 dense<[[-0.5, 0.0, 0.5, -0.25],
                                   [-0.25, 0.25, -0.5, 0.0],
                                   [0.0, 0.5, -0.25, 0.25],
                                   [0.25, -0.5, 0.0, 0.5],
                                   [0.5, -0.25, 0.25, -0.5],
                                   [-0.5, 0.0, 0.5, -0.25],
                                   [-0.25, 0.25, -0.5, 0.0],
                                   [0.0, 0.5, -0.25, 0.25]]> : tensor<8x4xf32>
  %zero = arith.constant 0.0 : f32
  %m3, %c = btensor.map_reduce %m2 ins(%a, %b : !buffer.buf<4x8xf32>, !buffer.buf<8x4xf32>)
      init(%zero : f32) {out_rank = 2 : i64, shape = array<i64: 4, 4, 8>,
      maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>],
      out_map = affine_map<(i, j) -> (i, j)>} combiner {
    ^bb0(%acc: f32, %x: f32, %y: f32):
      %p = arith.mulf %x, %y : f32
      %s = arith.addf %acc, %p : f32
      btensor.yield %s : f32
  } : !buffer.buf<4x4xf32>
  %m4 = buffer.print %m3, %c : !buffer.buf<4x4xf32>
  func.return %m4 : !mem.M<0>
}
