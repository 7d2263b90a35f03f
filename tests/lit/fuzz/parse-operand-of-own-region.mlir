// RUN: not gpu-opt %s 2>&1 | filecheck %s
// RUN: not gpu-run %s --provider interp 2>&1 | filecheck %s
//
// Found by the fuzzer (tests/fuzz): an operand named after a value of the op's own region
// (`init(%p : f32)`, `%p` defined in the combiner) parsed: xDSL's parser resolved the forward
// reference by the definition inside the region, but the op kept the unresolved value, and
// the verifier failed with an internal error ("Forward declared values do not have an owner").
// It is a parse error at the op now.

// CHECK-NOT: Traceback
func.func @matmul(%m: !mem.M<0>, %a: !buffer.buf<2x3xf32>, %b: !buffer.buf<3x4xf32>)
    -> (!mem.M<0>, !buffer.buf<2x4xf32>) {
  %m1, %c = btensor.map_reduce %m ins(%a, %b : !buffer.buf<2x3xf32>, !buffer.buf<3x4xf32>)
      init(%p : f32) {out_rank = 2 : i64, shape = array<i64: 2, 4, 3>,
      maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>],
      out_map = affine_map<(i, j) -> (i, j)>} combiner {
    ^bb0(%acc: f32, %x: f32, %y: f32):
      %p = arith.mulf %x, %y : f32
      %s = arith.addf %acc, %p : f32
      btensor.yield %s : f32
  } : !buffer.buf<2x4xf32>
  func.return %m1, %c : !mem.M<0>, !buffer.buf<2x4xf32>
}
// CHECK: parse-operand-of-own-region.mlir:13:3: error: operand #3 (%p) is not defined where it is used
// CHECK-NOT: {{Traceback|internal error}}
