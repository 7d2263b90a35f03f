// RUN: gpu-opt %s | filecheck %s
// RUN: ROUNDTRIP
// RUN: gpu-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// Every op of the btensor dialect in its custom syntax: with several, one and no inputs, a
// full reduction to a rank-0 buffer, a pure map, with and without post inputs; the generic
// form is IR.md's (operand order, properties, operandSegmentSizes on map_reduce_post only).

func.func @btensor(%m0: !mem.M<0>, %a: !buffer.buf<4x8xf32>, %b: !buffer.buf<8x4xf32>, %bias: !buffer.buf<4xf32>, %scale: !buffer.buf<f32>, %zero: f32, %one: i32) -> !mem.M<0> {
  // Matrix product: two inputs, two parallel loops and one reduction loop.
  %m1, %c = btensor.map_reduce %m0 ins(%a, %b : !buffer.buf<4x8xf32>, !buffer.buf<8x4xf32>) init(%zero : f32) {out_rank = 2 : i64, shape = array<i64: 4, 4, 8>, maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>], out_map = affine_map<(i, j) -> (i, j)>} combiner {
  ^bb0(%acc: f32, %x: f32, %y: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    btensor.yield %s : f32
  } : !buffer.buf<4x4xf32>
  // A full reduction to a rank-0 buffer.
  %m2, %sum = btensor.map_reduce %m1 ins(%a : !buffer.buf<4x8xf32>) init(%zero : f32) {out_rank = 0 : i64, shape = array<i64: 4, 8>, maps = [affine_map<(i, k) -> (i, k)>], out_map = affine_map<() -> ()>} combiner {
  ^bb0(%acc1: f32, %x1: f32):
    %s1 = arith.addf %acc1, %x1 : f32
    btensor.yield %s1 : f32
  } : !buffer.buf<f32>
  // A pure map (no reduction loop) that transposes its input.
  %m3, %t = btensor.map_reduce %m2 ins(%a : !buffer.buf<4x8xf32>) init(%zero : f32) {out_rank = 2 : i64, shape = array<i64: 8, 4>, maps = [affine_map<(i, j) -> (j, i)>], out_map = affine_map<(i, j) -> (i, j)>} combiner {
  ^bb0(%acc2: f32, %x2: f32):
    btensor.yield %x2 : f32
  } : !buffer.buf<8x4xf32>
  // No inputs: every cell is the init value; a discardable attribute next to the properties.
  %m4, %fill = btensor.map_reduce %m3 init(%one : i32) {out_rank = 1 : i64, shape = array<i64: 3>, maps = [], out_map = affine_map<(i) -> (i)>, tag} combiner {
  ^bb0(%acc3: i32):
    btensor.yield %acc3 : i32
  } : !buffer.buf<3xi32>
  // With post inputs (a row and a rank-0 buffer) and an epilogue of another type.
  %m5, %d = btensor.map_reduce_post %m4 ins(%a : !buffer.buf<4x8xf32>) post_ins(%bias, %scale : !buffer.buf<4xf32>, !buffer.buf<f32>) init(%zero : f32) {out_rank = 1 : i64, shape = array<i64: 4, 8>, maps = [affine_map<(i, k) -> (i, k)>], post_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> ()>], out_map = affine_map<(i) -> (i)>} combiner {
  ^bb0(%acc4: f32, %x4: f32):
    %s4 = arith.addf %acc4, %x4 : f32
    btensor.yield %s4 : f32
  } epilogue {
  ^bb0(%res4: f32, %bb4: f32, %sc4: f32):
    %t4 = arith.addf %res4, %bb4 : f32
    %r4 = arith.mulf %t4, %sc4 : f32
    %i4 = arith.fptosi %r4 : f32 to i32
    btensor.yield %i4 : i32
  } : !buffer.buf<4xi32>
  // Without post inputs.
  %m6, %e = btensor.map_reduce_post %m5 ins(%b : !buffer.buf<8x4xf32>) init(%zero : f32) {out_rank = 1 : i64, shape = array<i64: 4, 8>, maps = [affine_map<(j, k) -> (k, j)>], post_maps = [], out_map = affine_map<(j) -> (j)>, tag} combiner {
  ^bb0(%acc5: f32, %x5: f32):
    %s5 = arith.maximumf %acc5, %x5 : f32
    btensor.yield %s5 : f32
  } epilogue {
  ^bb0(%res5: f32):
    btensor.yield %res5 : f32
  } : !buffer.buf<4xf32>
  func.return %m6 : !mem.M<0>
}

// CHECK:      builtin.module {
// CHECK-NEXT:   func.func @btensor(%m0: !mem.M<0>, %a: !buffer.buf<4x8xf32>, %b: !buffer.buf<8x4xf32>, %bias: !buffer.buf<4xf32>, %scale: !buffer.buf<f32>, %zero: f32, %one: i32) -> !mem.M<0> {
// CHECK-NEXT:     %m1, %c = btensor.map_reduce %m0 ins(%a, %b : !buffer.buf<4x8xf32>, !buffer.buf<8x4xf32>) init(%zero : f32) {out_rank = 2 : i64, shape = array<i64: 4, 4, 8>, maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>], out_map = affine_map<(d0, d1) -> (d0, d1)>} combiner {
// CHECK-NEXT:     ^bb0(%acc: f32, %x: f32, %y: f32):
// CHECK-NEXT:       %p = arith.mulf %x, %y : f32
// CHECK-NEXT:       %s = arith.addf %acc, %p : f32
// CHECK-NEXT:       btensor.yield %s : f32
// CHECK-NEXT:     } : !buffer.buf<4x4xf32>
// CHECK-NEXT:     %m2, %sum = btensor.map_reduce %m1 ins(%a : !buffer.buf<4x8xf32>) init(%zero : f32) {out_rank = 0 : i64, shape = array<i64: 4, 8>, maps = [affine_map<(d0, d1) -> (d0, d1)>], out_map = affine_map<() -> ()>} combiner {
// CHECK-NEXT:     ^bb0(%acc1: f32, %x1: f32):
// CHECK-NEXT:       %s1 = arith.addf %acc1, %x1 : f32
// CHECK-NEXT:       btensor.yield %s1 : f32
// CHECK-NEXT:     } : !buffer.buf<f32>
// CHECK-NEXT:     %m3, %t = btensor.map_reduce %m2 ins(%a : !buffer.buf<4x8xf32>) init(%zero : f32) {out_rank = 2 : i64, shape = array<i64: 8, 4>, maps = [affine_map<(d0, d1) -> (d1, d0)>], out_map = affine_map<(d0, d1) -> (d0, d1)>} combiner {
// CHECK-NEXT:     ^bb0(%acc2: f32, %x2: f32):
// CHECK-NEXT:       btensor.yield %x2 : f32
// CHECK-NEXT:     } : !buffer.buf<8x4xf32>
// CHECK-NEXT:     %m4, %fill = btensor.map_reduce %m3 init(%one : i32) {out_rank = 1 : i64, shape = array<i64: 3>, maps = [], out_map = affine_map<(d0) -> (d0)>, tag} combiner {
// CHECK-NEXT:     ^bb0(%acc3: i32):
// CHECK-NEXT:       btensor.yield %acc3 : i32
// CHECK-NEXT:     } : !buffer.buf<3xi32>
// CHECK-NEXT:     %m5, %d = btensor.map_reduce_post %m4 ins(%a : !buffer.buf<4x8xf32>) post_ins(%bias, %scale : !buffer.buf<4xf32>, !buffer.buf<f32>) init(%zero : f32) {out_rank = 1 : i64, shape = array<i64: 4, 8>, maps = [affine_map<(d0, d1) -> (d0, d1)>], post_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], out_map = affine_map<(d0) -> (d0)>} combiner {
// CHECK-NEXT:     ^bb0(%acc4: f32, %x4: f32):
// CHECK-NEXT:       %s4 = arith.addf %acc4, %x4 : f32
// CHECK-NEXT:       btensor.yield %s4 : f32
// CHECK-NEXT:     } epilogue {
// CHECK-NEXT:     ^bb0(%res4: f32, %bb4: f32, %sc4: f32):
// CHECK-NEXT:       %t4 = arith.addf %res4, %bb4 : f32
// CHECK-NEXT:       %r4 = arith.mulf %t4, %sc4 : f32
// CHECK-NEXT:       %i4 = arith.fptosi %r4 : f32 to i32
// CHECK-NEXT:       btensor.yield %i4 : i32
// CHECK-NEXT:     } : !buffer.buf<4xi32>
// CHECK-NEXT:     %m6, %e = btensor.map_reduce_post %m5 ins(%b : !buffer.buf<8x4xf32>) init(%zero : f32) {out_rank = 1 : i64, shape = array<i64: 4, 8>, maps = [affine_map<(d0, d1) -> (d1, d0)>], post_maps = [], out_map = affine_map<(d0) -> (d0)>, tag} combiner {
// CHECK-NEXT:     ^bb0(%acc5: f32, %x5: f32):
// CHECK-NEXT:       %s5 = arith.maximumf %acc5, %x5 : f32
// CHECK-NEXT:       btensor.yield %s5 : f32
// CHECK-NEXT:     } epilogue {
// CHECK-NEXT:     ^bb0(%res5: f32):
// CHECK-NEXT:       btensor.yield %res5 : f32
// CHECK-NEXT:     } : !buffer.buf<4xf32>
// CHECK-NEXT:     func.return %m6 : !mem.M<0>
// CHECK-NEXT:   }
// CHECK-NEXT: }

// GENERIC:      "builtin.module"() ({
// GENERIC-NEXT:   "func.func"() <{sym_name = "btensor", function_type = (!mem.M<0>, !buffer.buf<4x8xf32>, !buffer.buf<8x4xf32>, !buffer.buf<4xf32>, !buffer.buf<f32>, f32, i32) -> !mem.M<0>}> ({
// GENERIC-NEXT:   ^bb0(%m0: !mem.M<0>, %a: !buffer.buf<4x8xf32>, %b: !buffer.buf<8x4xf32>, %bias: !buffer.buf<4xf32>, %scale: !buffer.buf<f32>, %zero: f32, %one: i32):
// GENERIC-NEXT:     %m1, %c = "btensor.map_reduce"(%m0, %a, %b, %zero) <{out_rank = 2 : i64, shape = array<i64: 4, 4, 8>, maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>], out_map = affine_map<(d0, d1) -> (d0, d1)>}> ({
// GENERIC-NEXT:     ^bb0(%acc: f32, %x: f32, %y: f32):
// GENERIC-NEXT:       %p = "arith.mulf"(%x, %y) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
// GENERIC-NEXT:       %s = "arith.addf"(%acc, %p) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
// GENERIC-NEXT:       "btensor.yield"(%s) : (f32) -> ()
// GENERIC-NEXT:     }) : (!mem.M<0>, !buffer.buf<4x8xf32>, !buffer.buf<8x4xf32>, f32) -> (!mem.M<0>, !buffer.buf<4x4xf32>)
// GENERIC-NEXT:     %m2, %sum = "btensor.map_reduce"(%m1, %a, %zero) <{out_rank = 0 : i64, shape = array<i64: 4, 8>, maps = [affine_map<(d0, d1) -> (d0, d1)>], out_map = affine_map<() -> ()>}> ({
// GENERIC-NEXT:     ^bb0(%acc1: f32, %x1: f32):
// GENERIC-NEXT:       %s1 = "arith.addf"(%acc1, %x1) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
// GENERIC-NEXT:       "btensor.yield"(%s1) : (f32) -> ()
// GENERIC-NEXT:     }) : (!mem.M<0>, !buffer.buf<4x8xf32>, f32) -> (!mem.M<0>, !buffer.buf<f32>)
// GENERIC-NEXT:     %m3, %t = "btensor.map_reduce"(%m2, %a, %zero) <{out_rank = 2 : i64, shape = array<i64: 8, 4>, maps = [affine_map<(d0, d1) -> (d1, d0)>], out_map = affine_map<(d0, d1) -> (d0, d1)>}> ({
// GENERIC-NEXT:     ^bb0(%acc2: f32, %x2: f32):
// GENERIC-NEXT:       "btensor.yield"(%x2) : (f32) -> ()
// GENERIC-NEXT:     }) : (!mem.M<0>, !buffer.buf<4x8xf32>, f32) -> (!mem.M<0>, !buffer.buf<8x4xf32>)
// GENERIC-NEXT:     %m4, %fill = "btensor.map_reduce"(%m3, %one) <{out_rank = 1 : i64, shape = array<i64: 3>, maps = [], out_map = affine_map<(d0) -> (d0)>}> ({
// GENERIC-NEXT:     ^bb0(%acc3: i32):
// GENERIC-NEXT:       "btensor.yield"(%acc3) : (i32) -> ()
// GENERIC-NEXT:     }) {tag} : (!mem.M<0>, i32) -> (!mem.M<0>, !buffer.buf<3xi32>)
// GENERIC-NEXT:     %m5, %d = "btensor.map_reduce_post"(%m4, %a, %bias, %scale, %zero) <{out_rank = 1 : i64, shape = array<i64: 4, 8>, maps = [affine_map<(d0, d1) -> (d0, d1)>], post_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], out_map = affine_map<(d0) -> (d0)>, operandSegmentSizes = array<i32: 1, 1, 2, 1>}> ({
// GENERIC-NEXT:     ^bb0(%acc4: f32, %x4: f32):
// GENERIC-NEXT:       %s4 = "arith.addf"(%acc4, %x4) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
// GENERIC-NEXT:       "btensor.yield"(%s4) : (f32) -> ()
// GENERIC-NEXT:     }, {
// GENERIC-NEXT:     ^bb0(%res4: f32, %bb4: f32, %sc4: f32):
// GENERIC-NEXT:       %t4 = "arith.addf"(%res4, %bb4) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
// GENERIC-NEXT:       %r4 = "arith.mulf"(%t4, %sc4) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
// GENERIC-NEXT:       %i4 = "arith.fptosi"(%r4) : (f32) -> i32
// GENERIC-NEXT:       "btensor.yield"(%i4) : (i32) -> ()
// GENERIC-NEXT:     }) : (!mem.M<0>, !buffer.buf<4x8xf32>, !buffer.buf<4xf32>, !buffer.buf<f32>, f32) -> (!mem.M<0>, !buffer.buf<4xi32>)
// GENERIC-NEXT:     %m6, %e = "btensor.map_reduce_post"(%m5, %b, %zero) <{out_rank = 1 : i64, shape = array<i64: 4, 8>, maps = [affine_map<(d0, d1) -> (d1, d0)>], post_maps = [], out_map = affine_map<(d0) -> (d0)>, operandSegmentSizes = array<i32: 1, 1, 0, 1>}> ({
// GENERIC-NEXT:     ^bb0(%acc5: f32, %x5: f32):
// GENERIC-NEXT:       %s5 = "arith.maximumf"(%acc5, %x5) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
// GENERIC-NEXT:       "btensor.yield"(%s5) : (f32) -> ()
// GENERIC-NEXT:     }, {
// GENERIC-NEXT:     ^bb0(%res5: f32):
// GENERIC-NEXT:       "btensor.yield"(%res5) : (f32) -> ()
// GENERIC-NEXT:     }) {tag} : (!mem.M<0>, !buffer.buf<8x4xf32>, f32) -> (!mem.M<0>, !buffer.buf<4xf32>)
// GENERIC-NEXT:     "func.return"(%m6) : (!mem.M<0>) -> ()
// GENERIC-NEXT:   }) : () -> ()
// GENERIC-NEXT: }) : () -> ()
