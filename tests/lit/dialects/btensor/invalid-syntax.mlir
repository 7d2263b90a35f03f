// RUN: gpu-opt %s --parsing-diagnostics --split-input-file | filecheck %s

// Errors in the custom syntax of the btensor ops.

// btensor.map_reduce has neither post inputs ...
%m0, %a, %b, %z = "test.op"() : () -> (!mem.M<0>, !buffer.buf<4xf32>, !buffer.buf<f32>, f32)
%m1, %c = btensor.map_reduce %m0 ins(%a : !buffer.buf<4xf32>) post_ins(%b : !buffer.buf<f32>) init(%z : f32) {out_rank = 0 : i64, shape = array<i64: 4>, maps = [affine_map<(i) -> (i)>], post_maps = [affine_map<() -> ()>], out_map = affine_map<() -> ()>} combiner {
^bb0(%acc: f32, %x: f32):
  btensor.yield %acc : f32
} : !buffer.buf<f32>

// CHECK: 'btensor.map_reduce' takes no post_ins or epilogue; use btensor.map_reduce_post

// -----

// ... nor an epilogue ...
%m0, %a, %z = "test.op"() : () -> (!mem.M<0>, !buffer.buf<4xf32>, f32)
%m1, %c = btensor.map_reduce %m0 ins(%a : !buffer.buf<4xf32>) init(%z : f32) {out_rank = 0 : i64, shape = array<i64: 4>, maps = [affine_map<(i) -> (i)>], out_map = affine_map<() -> ()>} combiner {
^bb0(%acc: f32, %x: f32):
  btensor.yield %acc : f32
} epilogue {
^bb0(%acc: f32):
  btensor.yield %acc : f32
} : !buffer.buf<f32>

// CHECK: 'btensor.map_reduce' takes no post_ins or epilogue; use btensor.map_reduce_post

// -----

// ... which btensor.map_reduce_post needs.
%m0, %a, %z = "test.op"() : () -> (!mem.M<0>, !buffer.buf<4xf32>, f32)
%m1, %c = btensor.map_reduce_post %m0 ins(%a : !buffer.buf<4xf32>) init(%z : f32) {out_rank = 0 : i64, shape = array<i64: 4>, maps = [affine_map<(i) -> (i)>], post_maps = [], out_map = affine_map<() -> ()>} combiner {
^bb0(%acc: f32, %x: f32):
  btensor.yield %acc : f32
} : !buffer.buf<f32>

// CHECK: 'btensor.map_reduce_post' expects an epilogue region

// -----

// Each operand group gives one type per operand.
%m0, %a, %z = "test.op"() : () -> (!mem.M<0>, !buffer.buf<4xf32>, f32)
%m1, %c = btensor.map_reduce %m0 ins(%a, %a : !buffer.buf<4xf32>) init(%z : f32) {out_rank = 0 : i64, shape = array<i64: 4>, maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], out_map = affine_map<() -> ()>} combiner {
^bb0(%acc: f32, %x: f32, %y: f32):
  btensor.yield %acc : f32
} : !buffer.buf<f32>

// CHECK: 'btensor.map_reduce' lists 2 operands but 1 types in ins(…)

// -----

// The init value is not optional.
%m0, %a = "test.op"() : () -> (!mem.M<0>, !buffer.buf<4xf32>)
%m1, %c = btensor.map_reduce %m0 ins(%a : !buffer.buf<4xf32>) {out_rank = 0 : i64, shape = array<i64: 4>, maps = [affine_map<(i) -> (i)>], out_map = affine_map<() -> ()>} combiner {
^bb0(%acc: f32, %x: f32):
  btensor.yield %acc : f32
} : !buffer.buf<f32>

// CHECK: 'btensor.map_reduce' expects init(%value : type)

// -----

// The combiner region is named.
%m0, %a, %z = "test.op"() : () -> (!mem.M<0>, !buffer.buf<4xf32>, f32)
%m1, %c = btensor.map_reduce %m0 ins(%a : !buffer.buf<4xf32>) init(%z : f32) {out_rank = 0 : i64, shape = array<i64: 4>, maps = [affine_map<(i) -> (i)>], out_map = affine_map<() -> ()>} {
^bb0(%acc: f32, %x: f32):
  btensor.yield %acc : f32
} : !buffer.buf<f32>

// CHECK: Expected 'combiner'
