// A map chain over a transpose and a map over the transpose of a map's output.
// t = a^T = [[1, 4], [2, 5], [3, 6]]; y = 2t; z = y + t = 3t; w = z^T + 1 = 3a + 1.
// fuse-map-reduce fuses y into z (which reads t directly, once); w reads a view of z, so it
// stays a separate op (tests/lit/passes/fuse-map-reduce-views.mlir checks the IR). Fused on
// the GPU path (interp, cpu) and unfused on the CPU path, the numbers are the same.
// RUN: gpu-run %s --provider interp | filecheck %s
// RUN: gpu-run %s --provider cpu | filecheck %s
// RUN: gpu-run %s --provider interp -p btensor-lower-map-reduce,buffer-lower-ptr | filecheck %s

// CHECK:      3.00, 12.00,
// CHECK-NEXT: 6.00, 15.00,
// CHECK-NEXT: 9.00, 18.00,
// CHECK-NEXT: 4.00, 7.00, 10.00,
// CHECK-NEXT: 13.00, 16.00, 19.00,
// CHECK-EMPTY:

func.func @main(%m: !mem.M<0>) -> !mem.M<0> {
  %m0, %a = buffer.init %m dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %t = buffer.transpose %a [1, 0] : !buffer.buf<2x3xf32> to !buffer.buf<3x2xf32, strided<[1, 3]>>
  %zero = arith.constant 0.0 : f32
  %m1, %y = btensor.map_reduce %m0 ins(%t : !buffer.buf<3x2xf32, strided<[1, 3]>>) init(%zero : f32)
      {out_rank = 2 : i64, shape = array<i64: 3, 2>, maps = [affine_map<(i, j) -> (i, j)>],
      out_map = affine_map<(i, j) -> (i, j)>} combiner {
    ^bb0(%acc: f32, %v: f32):
      %two = arith.constant 2.0 : f32
      %r = arith.mulf %v, %two : f32
      btensor.yield %r : f32
  } : !buffer.buf<3x2xf32>
  %m2, %z = btensor.map_reduce %m1 ins(%y, %t : !buffer.buf<3x2xf32>, !buffer.buf<3x2xf32, strided<[1, 3]>>) init(%zero : f32)
      {out_rank = 2 : i64, shape = array<i64: 3, 2>, maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
      out_map = affine_map<(i, j) -> (i, j)>} combiner {
    ^bb0(%acc: f32, %u: f32, %v: f32):
      %s = arith.addf %u, %v : f32
      btensor.yield %s : f32
  } : !buffer.buf<3x2xf32>
  %zt = buffer.transpose %z [1, 0] : !buffer.buf<3x2xf32> to !buffer.buf<2x3xf32, strided<[1, 2]>>
  %m3, %w = btensor.map_reduce %m2 ins(%zt : !buffer.buf<2x3xf32, strided<[1, 2]>>) init(%zero : f32)
      {out_rank = 2 : i64, shape = array<i64: 2, 3>, maps = [affine_map<(i, j) -> (i, j)>],
      out_map = affine_map<(i, j) -> (i, j)>} combiner {
    ^bb0(%acc: f32, %v: f32):
      %one = arith.constant 1.0 : f32
      %r = arith.addf %v, %one : f32
      btensor.yield %r : f32
  } : !buffer.buf<2x3xf32>
  %m4 = buffer.print %m3, %z : !buffer.buf<3x2xf32>
  %m5 = buffer.print %m4, %w : !buffer.buf<2x3xf32>
  func.return %m5 : !mem.M<0>
}
