// RUN: gpu-opt %s --verify-diagnostics --split-input-file

// One case per verifier rule of the btensor dialect.

// The loop extents are not negative.
%m0, %a, %b, %z = "test.op"() : () -> (!mem.M<0>, !buffer.buf<4x8xf32>, !buffer.buf<4xf32>, f32)
// expected-error @below {{'btensor.map_reduce' expects loop extents >= 0, found [4, -8]}}
%m1, %c = btensor.map_reduce %m0 ins(%a : !buffer.buf<4x8xf32>) init(%z : f32) {out_rank = 1 : i64, shape = array<i64: 4, -8>, maps = [affine_map<(i, k) -> (i, k)>], out_map = affine_map<(i) -> (i)>} combiner {
^bb0(%acc: f32, %x: f32):
  btensor.yield %acc : f32
} : !buffer.buf<4xf32>


// -----

// out_rank counts the leading (parallel) loops ...
%m0, %a, %b, %z = "test.op"() : () -> (!mem.M<0>, !buffer.buf<4x8xf32>, !buffer.buf<4xf32>, f32)
// expected-error @below {{'btensor.map_reduce' expects out_rank in [0, 2] (the loop rank), found 3}}
%m1, %c = btensor.map_reduce %m0 ins(%a : !buffer.buf<4x8xf32>) init(%z : f32) {out_rank = 3 : i64, shape = array<i64: 4, 8>, maps = [affine_map<(i, k) -> (i, k)>], out_map = affine_map<(i) -> (i)>} combiner {
^bb0(%acc: f32, %x: f32):
  btensor.yield %acc : f32
} : !buffer.buf<4xf32>


// -----

%m0, %a, %b, %z = "test.op"() : () -> (!mem.M<0>, !buffer.buf<4x8xf32>, !buffer.buf<4xf32>, f32)
// expected-error @below {{'btensor.map_reduce' expects out_rank in [0, 2] (the loop rank), found -1}}
%m1, %c = btensor.map_reduce %m0 ins(%a : !buffer.buf<4x8xf32>) init(%z : f32) {out_rank = -1 : i64, shape = array<i64: 4, 8>, maps = [affine_map<(i, k) -> (i, k)>], out_map = affine_map<(i) -> (i)>} combiner {
^bb0(%acc: f32, %x: f32):
  btensor.yield %acc : f32
} : !buffer.buf<4xf32>


// -----

// ... as an i64.
%m0, %a, %b, %z = "test.op"() : () -> (!mem.M<0>, !buffer.buf<4x8xf32>, !buffer.buf<4xf32>, f32)
// expected-error @below {{Expected attribute i64 but got i32}}
%m1, %c = btensor.map_reduce %m0 ins(%a : !buffer.buf<4x8xf32>) init(%z : f32) {out_rank = 1 : i32, shape = array<i64: 4, 8>, maps = [affine_map<(i, k) -> (i, k)>], out_map = affine_map<(i) -> (i)>} combiner {
^bb0(%acc: f32, %x: f32):
  btensor.yield %acc : f32
} : !buffer.buf<4xf32>


// -----

// There is one map per input ...
%m0, %a, %b, %z = "test.op"() : () -> (!mem.M<0>, !buffer.buf<4x8xf32>, !buffer.buf<4xf32>, f32)
// expected-error @below {{'btensor.map_reduce' expects one map in maps per input (1), found 0}}
%m1, %c = btensor.map_reduce %m0 ins(%a : !buffer.buf<4x8xf32>) init(%z : f32) {out_rank = 1 : i64, shape = array<i64: 4, 8>, maps = [], out_map = affine_map<(i) -> (i)>} combiner {
^bb0(%acc: f32, %x: f32):
  btensor.yield %acc : f32
} : !buffer.buf<4xf32>


// -----

// ... from the loop indices ...
%m0, %a, %b, %z = "test.op"() : () -> (!mem.M<0>, !buffer.buf<4x8xf32>, !buffer.buf<4xf32>, f32)
// expected-error @below {{'btensor.map_reduce' expects maps[0] to take 2 dimensions and no symbols, found (d0) -> (d0, d0)}}
%m1, %c = btensor.map_reduce %m0 ins(%a : !buffer.buf<4x8xf32>) init(%z : f32) {out_rank = 1 : i64, shape = array<i64: 4, 8>, maps = [affine_map<(i) -> (i, i)>], out_map = affine_map<(i) -> (i)>} combiner {
^bb0(%acc: f32, %x: f32):
  btensor.yield %acc : f32
} : !buffer.buf<4xf32>


// -----

%m0, %a, %b, %z = "test.op"() : () -> (!mem.M<0>, !buffer.buf<4x8xf32>, !buffer.buf<4xf32>, f32)
// expected-error @below {{'btensor.map_reduce' expects maps[0] to take 2 dimensions and no symbols, found (d0, d1)[s0] -> (d0, d1)}}
%m1, %c = btensor.map_reduce %m0 ins(%a : !buffer.buf<4x8xf32>) init(%z : f32) {out_rank = 1 : i64, shape = array<i64: 4, 8>, maps = [affine_map<(i, k)[s] -> (i, k)>], out_map = affine_map<(i) -> (i)>} combiner {
^bb0(%acc: f32, %x: f32):
  btensor.yield %acc : f32
} : !buffer.buf<4xf32>


// -----

// ... to the input's indices.
%m0, %a, %b, %z = "test.op"() : () -> (!mem.M<0>, !buffer.buf<4x8xf32>, !buffer.buf<4xf32>, f32)
// expected-error @below {{'btensor.map_reduce' expects maps[0] to give 2 results (the rank of !buffer.buf<4x8xf32>), found 1}}
%m1, %c = btensor.map_reduce %m0 ins(%a : !buffer.buf<4x8xf32>) init(%z : f32) {out_rank = 1 : i64, shape = array<i64: 4, 8>, maps = [affine_map<(i, k) -> (i)>], out_map = affine_map<(i) -> (i)>} combiner {
^bb0(%acc: f32, %x: f32):
  btensor.yield %acc : f32
} : !buffer.buf<4xf32>


// -----

// out_map maps the output indices to output indices.
%m0, %a, %b, %z = "test.op"() : () -> (!mem.M<0>, !buffer.buf<4x8xf32>, !buffer.buf<4xf32>, f32)
// expected-error @below {{'btensor.map_reduce' expects out_map to map 1 dimensions and no symbols to 1 results, found (d0, d1) -> (d0)}}
%m1, %c = btensor.map_reduce %m0 ins(%a : !buffer.buf<4x8xf32>) init(%z : f32) {out_rank = 1 : i64, shape = array<i64: 4, 8>, maps = [affine_map<(i, k) -> (i, k)>], out_map = affine_map<(i, k) -> (i)>} combiner {
^bb0(%acc: f32, %x: f32):
  btensor.yield %acc : f32
} : !buffer.buf<4xf32>


// -----

%m0, %a, %b, %z = "test.op"() : () -> (!mem.M<0>, !buffer.buf<4x8xf32>, !buffer.buf<4xf32>, f32)
// expected-error @below {{'btensor.map_reduce' expects out_map to map 1 dimensions and no symbols to 1 results, found (d0) -> (d0, d0)}}
%m1, %c = btensor.map_reduce %m0 ins(%a : !buffer.buf<4x8xf32>) init(%z : f32) {out_rank = 1 : i64, shape = array<i64: 4, 8>, maps = [affine_map<(i, k) -> (i, k)>], out_map = affine_map<(i) -> (i, i)>} combiner {
^bb0(%acc: f32, %x: f32):
  btensor.yield %acc : f32
} : !buffer.buf<4xf32>


// -----

%m0, %a, %b, %z = "test.op"() : () -> (!mem.M<0>, !buffer.buf<4x8xf32>, !buffer.buf<4xf32>, f32)
// expected-error @below {{'btensor.map_reduce' expects out_map to map 1 dimensions and no symbols to 1 results, found (d0)[s0] -> (d0)}}
%m1, %c = btensor.map_reduce %m0 ins(%a : !buffer.buf<4x8xf32>) init(%z : f32) {out_rank = 1 : i64, shape = array<i64: 4, 8>, maps = [affine_map<(i, k) -> (i, k)>], out_map = affine_map<(i)[s] -> (i)>} combiner {
^bb0(%acc: f32, %x: f32):
  btensor.yield %acc : f32
} : !buffer.buf<4xf32>


// -----

// Every property is present ...
%m0, %a, %b, %z = "test.op"() : () -> (!mem.M<0>, !buffer.buf<4x8xf32>, !buffer.buf<4xf32>, f32)
// expected-error @below {{property 'out_map' expected in operation 'btensor.map_reduce'}}
%m1, %c = btensor.map_reduce %m0 ins(%a : !buffer.buf<4x8xf32>) init(%z : f32) {out_rank = 1 : i64, shape = array<i64: 4, 8>, maps = [affine_map<(i, k) -> (i, k)>]} combiner {
^bb0(%acc: f32, %x: f32):
  btensor.yield %acc : f32
} : !buffer.buf<4xf32>


// -----

// ... and map_reduce has no post_maps.
%m0, %a, %b, %z = "test.op"() : () -> (!mem.M<0>, !buffer.buf<4x8xf32>, !buffer.buf<4xf32>, f32)
// expected-error @below {{property 'post_maps' is not defined by the operation 'btensor.map_reduce'. Use the dictionary attribute to add arbitrary information to the operation.}}
%m1, %c = btensor.map_reduce %m0 ins(%a : !buffer.buf<4x8xf32>) init(%z : f32) {out_rank = 1 : i64, shape = array<i64: 4, 8>, maps = [affine_map<(i, k) -> (i, k)>], out_map = affine_map<(i) -> (i)>, post_maps = []} combiner {
^bb0(%acc: f32, %x: f32):
  btensor.yield %acc : f32
} : !buffer.buf<4xf32>


// -----

// The combiner takes the accumulator and one element per input ...
%m0, %a, %b, %z = "test.op"() : () -> (!mem.M<0>, !buffer.buf<4x8xf32>, !buffer.buf<4xf32>, f32)
// expected-error @below {{'btensor.map_reduce' expects its combiner to take (f32, f32), found (f32)}}
%m1, %c = btensor.map_reduce %m0 ins(%a : !buffer.buf<4x8xf32>) init(%z : f32) {out_rank = 1 : i64, shape = array<i64: 4, 8>, maps = [affine_map<(i, k) -> (i, k)>], out_map = affine_map<(i) -> (i)>} combiner {
^bb0(%acc: f32):
  btensor.yield %acc : f32
} : !buffer.buf<4xf32>


// -----

%m0, %a, %b, %z = "test.op"() : () -> (!mem.M<0>, !buffer.buf<4x8xf32>, !buffer.buf<4xf32>, f32)
// expected-error @below {{'btensor.map_reduce' expects its combiner to take (f32, f32), found (f32, f64)}}
%m1, %c = btensor.map_reduce %m0 ins(%a : !buffer.buf<4x8xf32>) init(%z : f32) {out_rank = 1 : i64, shape = array<i64: 4, 8>, maps = [affine_map<(i, k) -> (i, k)>], out_map = affine_map<(i) -> (i)>} combiner {
^bb0(%acc: f32, %x: f64):
  btensor.yield %acc : f32
} : !buffer.buf<4xf32>


// -----

// ... and yields the accumulator's type ...
%m0, %a, %b, %z = "test.op"() : () -> (!mem.M<0>, !buffer.buf<4x8xf32>, !buffer.buf<4xf32>, f32)
// expected-error @below {{'btensor.map_reduce' expects its combiner to yield f32, found i32}}
%m1, %c = btensor.map_reduce %m0 ins(%a : !buffer.buf<4x8xf32>) init(%z : f32) {out_rank = 1 : i64, shape = array<i64: 4, 8>, maps = [affine_map<(i, k) -> (i, k)>], out_map = affine_map<(i) -> (i)>} combiner {
^bb0(%acc: f32, %x: f32):
  %i = arith.fptosi %acc : f32 to i32
  btensor.yield %i : i32
} : !buffer.buf<4xf32>


// -----

// ... once ...
%m0, %a, %b, %z = "test.op"() : () -> (!mem.M<0>, !buffer.buf<4x8xf32>, !buffer.buf<4xf32>, f32)
// expected-error @below {{'btensor.map_reduce' expects its combiner to end in btensor.yield of one value}}
%m1, %c = btensor.map_reduce %m0 ins(%a : !buffer.buf<4x8xf32>) init(%z : f32) {out_rank = 1 : i64, shape = array<i64: 4, 8>, maps = [affine_map<(i, k) -> (i, k)>], out_map = affine_map<(i) -> (i)>} combiner {
^bb0(%acc: f32, %x: f32):
  btensor.yield %acc, %x : f32, f32
} : !buffer.buf<4xf32>


// -----

// ... with btensor.yield.
%m0, %a, %b, %z = "test.op"() : () -> (!mem.M<0>, !buffer.buf<4x8xf32>, !buffer.buf<4xf32>, f32)
// expected-error @below {{'btensor.map_reduce' expects its combiner to end in btensor.yield of one value}}
%m1, %c = btensor.map_reduce %m0 ins(%a : !buffer.buf<4x8xf32>) init(%z : f32) {out_rank = 1 : i64, shape = array<i64: 4, 8>, maps = [affine_map<(i, k) -> (i, k)>], out_map = affine_map<(i) -> (i)>} combiner {
^bb0(%acc: f32, %x: f32):
  "test.termop"() : () -> ()
} : !buffer.buf<4xf32>


// -----

// btensor.yield ends only the regions of the map-reduce ops.
%v = "test.op"() : () -> f32
// expected-error @below {{'btensor.yield' expects parent op to be one of 'btensor.map_reduce', 'btensor.map_reduce_post'}}
btensor.yield %v : f32


// -----

// The result is a buffer of the output shape ...
%m0, %a, %b, %z = "test.op"() : () -> (!mem.M<0>, !buffer.buf<4x8xf32>, !buffer.buf<4xf32>, f32)
// expected-error @below {{'btensor.map_reduce' expects its result to be !buffer.buf<4xf32>, found !buffer.buf<8xf32>}}
%m1, %c = btensor.map_reduce %m0 ins(%a : !buffer.buf<4x8xf32>) init(%z : f32) {out_rank = 1 : i64, shape = array<i64: 4, 8>, maps = [affine_map<(i, k) -> (i, k)>], out_map = affine_map<(i) -> (i)>} combiner {
^bb0(%acc: f32, %x: f32):
  btensor.yield %acc : f32
} : !buffer.buf<8xf32>


// -----

// ... and the accumulator's type.
%m0, %a, %b, %z = "test.op"() : () -> (!mem.M<0>, !buffer.buf<4x8xf32>, !buffer.buf<4xf32>, f32)
// expected-error @below {{'btensor.map_reduce' expects its result to be !buffer.buf<4xf32>, found !buffer.buf<4xf64>}}
%m1, %c = btensor.map_reduce %m0 ins(%a : !buffer.buf<4x8xf32>) init(%z : f32) {out_rank = 1 : i64, shape = array<i64: 4, 8>, maps = [affine_map<(i, k) -> (i, k)>], out_map = affine_map<(i) -> (i)>} combiner {
^bb0(%acc: f32, %x: f32):
  btensor.yield %acc : f32
} : !buffer.buf<4xf64>


// -----

%m0, %a, %b, %z = "test.op"() : () -> (!mem.M<0>, !buffer.buf<4x8xf32>, !buffer.buf<4xf32>, f32)
// expected-error @below {{result 'res' at position 1 does not verify:}}
%m1, %c = btensor.map_reduce %m0 ins(%a : !buffer.buf<4x8xf32>) init(%z : f32) {out_rank = 1 : i64, shape = array<i64: 4, 8>, maps = [affine_map<(i, k) -> (i, k)>], out_map = affine_map<(i) -> (i)>} combiner {
^bb0(%acc: f32, %x: f32):
  btensor.yield %acc : f32
} : i32


// -----

// Inputs are buffers.
%m0, %a, %b, %z = "test.op"() : () -> (!mem.M<0>, !buffer.buf<4x8xf32>, !buffer.buf<4xf32>, f32)
// expected-error @below {{operand 'inputs' at position 1 does not verify:}}
%m1, %c = "btensor.map_reduce"(%m0, %z, %z) <{out_rank = 0 : i64, shape = array<i64>, maps = [affine_map<() -> ()>], out_map = affine_map<() -> ()>}> ({
^bb0(%acc: f32, %x: f32):
  btensor.yield %acc : f32
}) : (!mem.M<0>, f32, f32) -> (!mem.M<0>, !buffer.buf<f32>)


// -----

// map_reduce_post: one post map per post input ...
%m0, %a, %b, %z = "test.op"() : () -> (!mem.M<0>, !buffer.buf<4x8xf32>, !buffer.buf<4xf32>, f32)
// expected-error @below {{'btensor.map_reduce_post' expects one map in post_maps per input (1), found 0}}
%m1, %c = btensor.map_reduce_post %m0 ins(%a : !buffer.buf<4x8xf32>) post_ins(%b : !buffer.buf<4xf32>) init(%z : f32) {out_rank = 1 : i64, shape = array<i64: 4, 8>, maps = [affine_map<(i, k) -> (i, k)>], post_maps = [], out_map = affine_map<(i) -> (i)>} combiner {
^bb0(%acc: f32, %x: f32):
  btensor.yield %acc : f32
} epilogue {
^bb0(%acc: f32, %y: f32):
  btensor.yield %acc : f32
} : !buffer.buf<4xf32>


// -----

// ... from the output indices ...
%m0, %a, %b, %z = "test.op"() : () -> (!mem.M<0>, !buffer.buf<4x8xf32>, !buffer.buf<4xf32>, f32)
// expected-error @below {{'btensor.map_reduce_post' expects post_maps[0] to take 1 dimensions and no symbols, found (d0, d1) -> (d0)}}
%m1, %c = btensor.map_reduce_post %m0 ins(%a : !buffer.buf<4x8xf32>) post_ins(%b : !buffer.buf<4xf32>) init(%z : f32) {out_rank = 1 : i64, shape = array<i64: 4, 8>, maps = [affine_map<(i, k) -> (i, k)>], post_maps = [affine_map<(i, k) -> (i)>], out_map = affine_map<(i) -> (i)>} combiner {
^bb0(%acc: f32, %x: f32):
  btensor.yield %acc : f32
} epilogue {
^bb0(%acc: f32, %y: f32):
  btensor.yield %acc : f32
} : !buffer.buf<4xf32>


// -----

// ... to the post input's indices.
%m0, %a, %b, %z = "test.op"() : () -> (!mem.M<0>, !buffer.buf<4x8xf32>, !buffer.buf<4xf32>, f32)
// expected-error @below {{'btensor.map_reduce_post' expects post_maps[0] to give 1 results (the rank of !buffer.buf<4xf32>), found 2}}
%m1, %c = btensor.map_reduce_post %m0 ins(%a : !buffer.buf<4x8xf32>) post_ins(%b : !buffer.buf<4xf32>) init(%z : f32) {out_rank = 1 : i64, shape = array<i64: 4, 8>, maps = [affine_map<(i, k) -> (i, k)>], post_maps = [affine_map<(i) -> (i, i)>], out_map = affine_map<(i) -> (i)>} combiner {
^bb0(%acc: f32, %x: f32):
  btensor.yield %acc : f32
} epilogue {
^bb0(%acc: f32, %y: f32):
  btensor.yield %acc : f32
} : !buffer.buf<4xf32>


// -----

// The epilogue takes the accumulator and one element per post input ...
%m0, %a, %b, %z = "test.op"() : () -> (!mem.M<0>, !buffer.buf<4x8xf32>, !buffer.buf<4xf32>, f32)
// expected-error @below {{'btensor.map_reduce_post' expects its epilogue to take (f32, f32), found (f32)}}
%m1, %c = btensor.map_reduce_post %m0 ins(%a : !buffer.buf<4x8xf32>) post_ins(%b : !buffer.buf<4xf32>) init(%z : f32) {out_rank = 1 : i64, shape = array<i64: 4, 8>, maps = [affine_map<(i, k) -> (i, k)>], post_maps = [affine_map<(i) -> (i)>], out_map = affine_map<(i) -> (i)>} combiner {
^bb0(%acc: f32, %x: f32):
  btensor.yield %acc : f32
} epilogue {
^bb0(%acc: f32):
  btensor.yield %acc : f32
} : !buffer.buf<4xf32>


// -----

// ... and yields one value ...
%m0, %a, %b, %z = "test.op"() : () -> (!mem.M<0>, !buffer.buf<4x8xf32>, !buffer.buf<4xf32>, f32)
// expected-error @below {{'btensor.map_reduce_post' expects its epilogue to end in btensor.yield of one value}}
%m1, %c = btensor.map_reduce_post %m0 ins(%a : !buffer.buf<4x8xf32>) post_ins(%b : !buffer.buf<4xf32>) init(%z : f32) {out_rank = 1 : i64, shape = array<i64: 4, 8>, maps = [affine_map<(i, k) -> (i, k)>], post_maps = [affine_map<(i) -> (i)>], out_map = affine_map<(i) -> (i)>} combiner {
^bb0(%acc: f32, %x: f32):
  btensor.yield %acc : f32
} epilogue {
^bb0(%acc: f32, %y: f32):
  btensor.yield
} : !buffer.buf<4xf32>


// -----

// ... whose type is the result's element type.
%m0, %a, %b, %z = "test.op"() : () -> (!mem.M<0>, !buffer.buf<4x8xf32>, !buffer.buf<4xf32>, f32)
// expected-error @below {{'btensor.map_reduce_post' expects its result to be !buffer.buf<4xi32>, found !buffer.buf<4xf32>}}
%m1, %c = btensor.map_reduce_post %m0 ins(%a : !buffer.buf<4x8xf32>) post_ins(%b : !buffer.buf<4xf32>) init(%z : f32) {out_rank = 1 : i64, shape = array<i64: 4, 8>, maps = [affine_map<(i, k) -> (i, k)>], post_maps = [affine_map<(i) -> (i)>], out_map = affine_map<(i) -> (i)>} combiner {
^bb0(%acc: f32, %x: f32):
  btensor.yield %acc : f32
} epilogue {
^bb0(%acc: f32, %y: f32):
  %i = arith.fptosi %acc : f32 to i32
  btensor.yield %i : i32
} : !buffer.buf<4xf32>


// -----

// map_reduce_post has operand segments.
%m0, %a, %b, %z = "test.op"() : () -> (!mem.M<0>, !buffer.buf<4x8xf32>, !buffer.buf<4xf32>, f32)
// expected-error @below {{Expected operandSegmentSizes property in btensor.map_reduce_post operation.}}
%m1, %c = "btensor.map_reduce_post"(%m0, %a, %b, %z) <{out_rank = 1 : i64, shape = array<i64: 4, 8>, maps = [affine_map<(i, k) -> (i, k)>], post_maps = [affine_map<(i) -> (i)>], out_map = affine_map<(i) -> (i)>}> ({
^bb0(%acc: f32, %x: f32):
  btensor.yield %acc : f32
}, {
^bb0(%acc: f32, %y: f32):
  btensor.yield %acc : f32
}) : (!mem.M<0>, !buffer.buf<4x8xf32>, !buffer.buf<4xf32>, f32) -> (!mem.M<0>, !buffer.buf<4xf32>)


// -----

// Both run on the host token.
%m0, %a, %b, %z = "test.op"() : () -> (!mem.M<1>, !buffer.buf<4x8xf32>, !buffer.buf<4xf32>, f32)
// expected-error @below {{operand 'mem' at position 0 does not verify:}}
%m1, %c = "btensor.map_reduce"(%m0, %a, %z) <{out_rank = 1 : i64, shape = array<i64: 4, 8>, maps = [affine_map<(i, k) -> (i, k)>], out_map = affine_map<(i) -> (i)>}> ({
^bb0(%acc: f32, %x: f32):
  btensor.yield %acc : f32
}) : (!mem.M<1>, !buffer.buf<4x8xf32>, f32) -> (!mem.M<0>, !buffer.buf<4xf32>)
