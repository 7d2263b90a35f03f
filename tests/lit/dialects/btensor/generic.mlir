// RUN: gpu-opt %s | filecheck %s
// RUN: gpu-opt %s --print-op-generic | gpu-opt | filecheck %s

// Every btensor op written in the generic form of IR.md, as tests outside the project write it:
// it parses, verifies and prints in the custom syntax.

func.func @main(%m0: !mem.M<0>, %a: !buffer.buf<2x3xf32>, %b: !buffer.buf<3x2xf32>, %bias: !buffer.buf<2xf32>, %zero: f32) -> !mem.M<0> {
  %m1, %c = "btensor.map_reduce"(%m0, %a, %b, %zero) <{out_rank = 2 : i64, shape = array<i64: 2, 2, 3>, maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>], out_map = affine_map<(i, j) -> (i, j)>}> ({
  ^bb0(%acc: f32, %x: f32, %y: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    "btensor.yield"(%s) : (f32) -> ()
  }) : (!mem.M<0>, !buffer.buf<2x3xf32>, !buffer.buf<3x2xf32>, f32) -> (!mem.M<0>, !buffer.buf<2x2xf32>)
  %m2, %d = "btensor.map_reduce_post"(%m1, %a, %bias, %zero) <{out_rank = 1 : i64, shape = array<i64: 2, 3>, maps = [affine_map<(i, k) -> (i, k)>], post_maps = [affine_map<(i) -> (i)>], out_map = affine_map<(i) -> (i)>, operandSegmentSizes = array<i32: 1, 1, 1, 1>}> ({
  ^bb0(%acc2: f32, %x2: f32):
    %s2 = arith.maximumf %acc2, %x2 : f32
    "btensor.yield"(%s2) : (f32) -> ()
  }, {
  ^bb0(%max: f32, %bb: f32):
    %r = arith.subf %max, %bb : f32
    %n = arith.fptosi %r : f32 to i64
    "btensor.yield"(%n) : (i64) -> ()
  }) : (!mem.M<0>, !buffer.buf<2x3xf32>, !buffer.buf<2xf32>, f32) -> (!mem.M<0>, !buffer.buf<2xi64>)
  %p0 = buffer.print %m2, %d : !buffer.buf<2xi64>
  func.return %p0 : !mem.M<0>
}

// CHECK:      builtin.module {
// CHECK-NEXT:   func.func @main(%m0: !mem.M<0>, %a: !buffer.buf<2x3xf32>, %b: !buffer.buf<3x2xf32>, %bias: !buffer.buf<2xf32>, %zero: f32) -> !mem.M<0> {
// CHECK-NEXT:     %m1, %c = btensor.map_reduce %m0 ins(%a, %b : !buffer.buf<2x3xf32>, !buffer.buf<3x2xf32>) init(%zero : f32) {out_rank = 2 : i64, shape = array<i64: 2, 2, 3>, maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>], out_map = affine_map<(d0, d1) -> (d0, d1)>} combiner {
// CHECK-NEXT:     ^bb0(%acc: f32, %x: f32, %y: f32):
// CHECK-NEXT:       %p = arith.mulf %x, %y : f32
// CHECK-NEXT:       %s = arith.addf %acc, %p : f32
// CHECK-NEXT:       btensor.yield %s : f32
// CHECK-NEXT:     } : !buffer.buf<2x2xf32>
// CHECK-NEXT:     %m2, %d = btensor.map_reduce_post %m1 ins(%a : !buffer.buf<2x3xf32>) post_ins(%bias : !buffer.buf<2xf32>) init(%zero : f32) {out_rank = 1 : i64, shape = array<i64: 2, 3>, maps = [affine_map<(d0, d1) -> (d0, d1)>], post_maps = [affine_map<(d0) -> (d0)>], out_map = affine_map<(d0) -> (d0)>} combiner {
// CHECK-NEXT:     ^bb0(%acc2: f32, %x2: f32):
// CHECK-NEXT:       %s2 = arith.maximumf %acc2, %x2 : f32
// CHECK-NEXT:       btensor.yield %s2 : f32
// CHECK-NEXT:     } epilogue {
// CHECK-NEXT:     ^bb0(%max: f32, %bb: f32):
// CHECK-NEXT:       %r = arith.subf %max, %bb : f32
// CHECK-NEXT:       %n = arith.fptosi %r : f32 to i64
// CHECK-NEXT:       btensor.yield %n : i64
// CHECK-NEXT:     } : !buffer.buf<2xi64>
// CHECK-NEXT:     %p0 = buffer.print %m2, %d : !buffer.buf<2xi64>
// CHECK-NEXT:     func.return %p0 : !mem.M<0>
// CHECK-NEXT:   }
// CHECK-NEXT: }
