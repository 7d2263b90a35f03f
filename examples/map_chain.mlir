// A chain of three elementwise maps on a 1-D f32 buffer, y = x * 2, z = y + 1, w = z * x, then
// buffer.print of w = 2x^2 + x:
//
//   0.00, 3.00, 10.00, 21.00, 1.00, 10.00, 1.00, 0.12,
//
// fuse-map-reduce (the first stage of gpu-pipeline) makes the three ops one: one kernel, no
// intermediate buffers. Without it lower-btensor-map-reduce launches three kernels in one
// session, and y and z stay on the device between them.
//
//   gpu-opt examples/map_chain.mlir -p fuse-map-reduce                            # one op
//   gpu-opt examples/map_chain.mlir -p fuse-map-reduce,lower-btensor-map-reduce   # one launch
//   gpu-opt examples/map_chain.mlir -p lower-btensor-map-reduce   # three launches, one session

func.func @main(%m: !mem.M<0>) -> !mem.M<0> {
  %m1, %x = buffer.init %m dense<[0.0, 1.0, 2.0, 3.0, -1.0, -2.5, 0.5, 0.1]> : tensor<8xf32>
  %zero = arith.constant 0.0 : f32
  %m2, %y = btensor.map_reduce %m1 ins(%x : !buffer.buf<8xf32>) init(%zero : f32)
      {out_rank = 1 : i64, shape = array<i64: 8>, maps = [affine_map<(i) -> (i)>],
      out_map = affine_map<(i) -> (i)>} combiner {
    ^bb0(%acc: f32, %v: f32):
      %two = arith.constant 2.0 : f32
      %r = arith.mulf %v, %two : f32
      btensor.yield %r : f32
  } : !buffer.buf<8xf32>
  %m3, %z = btensor.map_reduce %m2 ins(%y : !buffer.buf<8xf32>) init(%zero : f32)
      {out_rank = 1 : i64, shape = array<i64: 8>, maps = [affine_map<(i) -> (i)>],
      out_map = affine_map<(i) -> (i)>} combiner {
    ^bb0(%acc: f32, %v: f32):
      %one = arith.constant 1.0 : f32
      %s = arith.addf %v, %one : f32
      btensor.yield %s : f32
  } : !buffer.buf<8xf32>
  %m4, %w = btensor.map_reduce %m3 ins(%z, %x : !buffer.buf<8xf32>, !buffer.buf<8xf32>)
      init(%zero : f32) {out_rank = 1 : i64, shape = array<i64: 8>,
      maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
      out_map = affine_map<(i) -> (i)>} combiner {
    ^bb0(%acc: f32, %u: f32, %v: f32):
      %p = arith.mulf %u, %v : f32
      btensor.yield %p : f32
  } : !buffer.buf<8xf32>
  %m5 = buffer.print %m4, %w : !buffer.buf<8xf32>
  func.return %m5 : !mem.M<0>
}
