// RUN: gpu-opt %s -p fuse-map-reduce --split-input-file | filecheck %s
// RUN: gpu-opt %S/../../../examples/map_chain.mlir -p fuse-map-reduce | filecheck %s --check-prefix=CHAIN
// RUN: gpu-opt %S/../../../examples/map_chain.mlir -p fuse-map-reduce,lower-btensor-map-reduce | filecheck %s --check-prefix=LAUNCH
// RUN: gpu-opt %S/../../../examples/map_chain.mlir -p lower-btensor-map-reduce | filecheck %s --check-prefix=UNFUSED
// RUN: gpu-opt %s -p fuse-map-reduce --split-input-file --mlir-pass-statistics -o /dev/null 2>&1 | filecheck %s --check-prefix=STATS

// The statistics of the whole file: the four producers fused below (26 map-reduces before, 22
// after).
// STATS:      {{^}}FuseMapReduce
// STATS-NEXT:   (S) 4 num-map-reduces-fused - Number of map-reduces fused into their consumer

// The map_chain example: y = x * 2, z = y + 1, w = z * x become one op. Its combiner computes
// x * 2, + 1 and * x in that order; x, which the first and the last op both read at i, is one
// input; y and z are gone.

// CHAIN:      func.func @main(%m: !mem.M<0>) -> !mem.M<0> {
// CHAIN-NEXT:   %m1, %x = buffer.init %m dense<[0.000000e+00, 1.000000e+00, 2.000000e+00, 3.000000e+00, -1.000000e+00, -2.500000e+00, 5.000000e-01, 1.000000e-01]> : tensor<8xf32>
// CHAIN-NEXT:   %zero = arith.constant 0.000000e+00 : f32
// CHAIN-NEXT:   %m4, %w = btensor.map_reduce %m1 ins(%x : !buffer.buf<8xf32>) init(%zero : f32) {out_rank = 1 : i64, shape = array<i64: 8>, maps = [affine_map<(d0) -> (d0)>], out_map = affine_map<(d0) -> (d0)>} combiner {
// CHAIN-NEXT:   ^bb0(%acc: f32, %v: f32):
// CHAIN-NEXT:     %two = arith.constant 2.000000e+00 : f32
// CHAIN-NEXT:     %r = arith.mulf %v, %two : f32
// CHAIN-NEXT:     %one = arith.constant 1.000000e+00 : f32
// CHAIN-NEXT:     %s = arith.addf %r, %one : f32
// CHAIN-NEXT:     %p = arith.mulf %s, %v : f32
// CHAIN-NEXT:     btensor.yield %p : f32
// CHAIN-NEXT:   } : !buffer.buf<8xf32>
// CHAIN-NEXT:   %m5 = buffer.print %m4, %w : !buffer.buf<8xf32>
// CHAIN-NEXT:   func.return %m5 : !mem.M<0>
// CHAIN-NEXT: }

// Lowered, the fused op is one kernel and one launch; unfused, it is three.

// LAUNCH:         func.func @map_reduce_kernel_0(
// LAUNCH-NOT:     func.func @map_reduce_kernel_
// LAUNCH-COUNT-1: gpu.launch @map_reduce_kernel_0
// LAUNCH-NOT:     gpu.launch

// UNFUSED-COUNT-3: gpu.launch
// UNFUSED-NOT:     gpu.launch

// -----

// A map into a reduction: s[i] = sum over k of x[i, k] * x[i, k]. The fused op reduces like the
// consumer; its combiner squares the element, then adds it to the accumulator.

func.func @reduce(%m: !mem.M<0>, %x: !buffer.buf<2x3xf32>) -> (!mem.M<0>, !buffer.buf<2xf32>) {
  %zero = arith.constant 0.0 : f32
  %m1, %y = btensor.map_reduce %m ins(%x : !buffer.buf<2x3xf32>) init(%zero : f32)
      {out_rank = 2 : i64, shape = array<i64: 2, 3>, maps = [affine_map<(i, k) -> (i, k)>],
      out_map = affine_map<(i, k) -> (i, k)>} combiner {
    ^bb0(%acc: f32, %v: f32):
      %sq = arith.mulf %v, %v : f32
      btensor.yield %sq : f32
  } : !buffer.buf<2x3xf32>
  %m2, %s = btensor.map_reduce %m1 ins(%y : !buffer.buf<2x3xf32>) init(%zero : f32)
      {out_rank = 1 : i64, shape = array<i64: 2, 3>, maps = [affine_map<(i, k) -> (i, k)>],
      out_map = affine_map<(i) -> (i)>} combiner {
    ^bb0(%acc: f32, %e: f32):
      %sum = arith.addf %acc, %e : f32
      btensor.yield %sum : f32
  } : !buffer.buf<2xf32>
  func.return %m2, %s : !mem.M<0>, !buffer.buf<2xf32>
}

// CHECK:      func.func @reduce(%m: !mem.M<0>, %x: !buffer.buf<2x3xf32>) -> (!mem.M<0>, !buffer.buf<2xf32>) {
// CHECK-NEXT:   %zero = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:   %m2, %s = btensor.map_reduce %m ins(%x : !buffer.buf<2x3xf32>) init(%zero : f32) {out_rank = 1 : i64, shape = array<i64: 2, 3>, maps = [affine_map<(d0, d1) -> (d0, d1)>], out_map = affine_map<(d0) -> (d0)>} combiner {
// CHECK-NEXT:   ^bb0(%acc: f32, %v: f32):
// CHECK-NEXT:     %sq = arith.mulf %v, %v : f32
// CHECK-NEXT:     %sum = arith.addf %acc, %sq : f32
// CHECK-NEXT:     btensor.yield %sum : f32
// CHECK-NEXT:   } : !buffer.buf<2xf32>
// CHECK-NEXT:   func.return %m2, %s : !mem.M<0>, !buffer.buf<2xf32>
// CHECK-NEXT: }

// -----

// A producer with an epilogue and a post input (y = x * 2 + b[j]) into a consumer with its own
// (z = max(y, 0) + c[i]): the producer's combiner and epilogue run in the fused combiner, its
// post input becomes an input read at post_maps; the consumer's epilogue stays.

func.func @post(%m: !mem.M<0>, %x: !buffer.buf<2x4xi32>, %b: !buffer.buf<4xi32>,
                %c: !buffer.buf<2xi32>) -> (!mem.M<0>, !buffer.buf<2x4xi32>) {
  %zero = arith.constant 0 : i32
  %m1, %y = btensor.map_reduce_post %m ins(%x : !buffer.buf<2x4xi32>) post_ins(%b : !buffer.buf<4xi32>)
      init(%zero : i32) {out_rank = 2 : i64, shape = array<i64: 2, 4>,
      maps = [affine_map<(i, j) -> (i, j)>], post_maps = [affine_map<(i, j) -> (j)>],
      out_map = affine_map<(i, j) -> (i, j)>} combiner {
    ^bb0(%acc: i32, %v: i32):
      %two = arith.constant 2 : i32
      %d = arith.muli %v, %two : i32
      btensor.yield %d : i32
  } epilogue {
    ^bb0(%acc: i32, %bias: i32):
      %t = arith.addi %acc, %bias : i32
      btensor.yield %t : i32
  } : !buffer.buf<2x4xi32>
  %m2, %z = btensor.map_reduce_post %m1 ins(%y : !buffer.buf<2x4xi32>) post_ins(%c : !buffer.buf<2xi32>)
      init(%zero : i32) {out_rank = 2 : i64, shape = array<i64: 2, 4>,
      maps = [affine_map<(i, j) -> (i, j)>], post_maps = [affine_map<(i, j) -> (i)>],
      out_map = affine_map<(i, j) -> (i, j)>} combiner {
    ^bb0(%acc: i32, %e: i32):
      %r = arith.maxsi %e, %zero : i32
      btensor.yield %r : i32
  } epilogue {
    ^bb0(%acc: i32, %shift: i32):
      %u = arith.addi %acc, %shift : i32
      btensor.yield %u : i32
  } : !buffer.buf<2x4xi32>
  func.return %m2, %z : !mem.M<0>, !buffer.buf<2x4xi32>
}

// CHECK:      func.func @post(%m: !mem.M<0>, %x: !buffer.buf<2x4xi32>, %b: !buffer.buf<4xi32>, %c: !buffer.buf<2xi32>) -> (!mem.M<0>, !buffer.buf<2x4xi32>) {
// CHECK-NEXT:   %zero = arith.constant 0 : i32
// CHECK-NEXT:   %m2, %z = btensor.map_reduce_post %m ins(%x, %b : !buffer.buf<2x4xi32>, !buffer.buf<4xi32>) post_ins(%c : !buffer.buf<2xi32>) init(%zero : i32) {out_rank = 2 : i64, shape = array<i64: 2, 4>, maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>], post_maps = [affine_map<(d0, d1) -> (d0)>], out_map = affine_map<(d0, d1) -> (d0, d1)>} combiner {
// CHECK-NEXT:   ^bb0(%acc: i32, %v: i32, %bias: i32):
// CHECK-NEXT:     %two = arith.constant 2 : i32
// CHECK-NEXT:     %d = arith.muli %v, %two : i32
// CHECK-NEXT:     %t = arith.addi %d, %bias : i32
// CHECK-NEXT:     %r = arith.maxsi %t, %zero : i32
// CHECK-NEXT:     btensor.yield %r : i32
// CHECK-NEXT:   } epilogue {
// CHECK-NEXT:   ^bb0(%acc_1: i32, %shift: i32):
// CHECK-NEXT:     %u = arith.addi %acc_1, %shift : i32
// CHECK-NEXT:     btensor.yield %u : i32
// CHECK-NEXT:   } : !buffer.buf<2x4xi32>
// CHECK-NEXT:   func.return %m2, %z : !mem.M<0>, !buffer.buf<2x4xi32>
// CHECK-NEXT: }

// -----

// The consumer reads the producer's output twice (y * y): the producer's value is computed once.

func.func @square(%m: !mem.M<0>, %x: !buffer.buf<4xf64>) -> (!mem.M<0>, !buffer.buf<4xf64>) {
  %zero = arith.constant 0.0 : f64
  %m1, %y = btensor.map_reduce %m ins(%x : !buffer.buf<4xf64>) init(%zero : f64)
      {out_rank = 1 : i64, shape = array<i64: 4>, maps = [affine_map<(i) -> (i)>],
      out_map = affine_map<(i) -> (i)>} combiner {
    ^bb0(%acc: f64, %v: f64):
      %half = arith.constant 0.5 : f64
      %h = arith.subf %v, %half : f64
      btensor.yield %h : f64
  } : !buffer.buf<4xf64>
  %m2, %z = btensor.map_reduce %m1 ins(%y, %y : !buffer.buf<4xf64>, !buffer.buf<4xf64>)
      init(%zero : f64) {out_rank = 1 : i64, shape = array<i64: 4>,
      maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
      out_map = affine_map<(i) -> (i)>} combiner {
    ^bb0(%acc: f64, %a: f64, %b: f64):
      %p = arith.mulf %a, %b : f64
      btensor.yield %p : f64
  } : !buffer.buf<4xf64>
  func.return %m2, %z : !mem.M<0>, !buffer.buf<4xf64>
}

// CHECK:      func.func @square(%m: !mem.M<0>, %x: !buffer.buf<4xf64>) -> (!mem.M<0>, !buffer.buf<4xf64>) {
// CHECK-NEXT:   %zero = arith.constant 0.000000e+00 : f64
// CHECK-NEXT:   %m2, %z = btensor.map_reduce %m ins(%x : !buffer.buf<4xf64>) init(%zero : f64) {out_rank = 1 : i64, shape = array<i64: 4>, maps = [affine_map<(d0) -> (d0)>], out_map = affine_map<(d0) -> (d0)>} combiner {
// CHECK-NEXT:   ^bb0(%acc: f64, %v: f64):
// CHECK-NEXT:     %half = arith.constant 5.000000e-01 : f64
// CHECK-NEXT:     %h = arith.subf %v, %half : f64
// CHECK-NEXT:     %p = arith.mulf %h, %h : f64
// CHECK-NEXT:     btensor.yield %p : f64
// CHECK-NEXT:   } : !buffer.buf<4xf64>
// CHECK-NEXT:   func.return %m2, %z : !mem.M<0>, !buffer.buf<4xf64>
// CHECK-NEXT: }

// -----

// Maps compose: the producer reads x transposed, the consumer (loops a, b, c over 4 x 1 x 3)
// reads y at (a, c), leaving out b, of extent 1. The fused op reads x at (c, a).

func.func @compose(%m: !mem.M<0>, %x: !buffer.buf<3x4xi32>) -> (!mem.M<0>, !buffer.buf<4x1x3xi32>) {
  %one = arith.constant 1 : i32
  %m1, %y = btensor.map_reduce %m ins(%x : !buffer.buf<3x4xi32>) init(%one : i32)
      {out_rank = 2 : i64, shape = array<i64: 4, 3>, maps = [affine_map<(i, j) -> (j, i)>],
      out_map = affine_map<(i, j) -> (i, j)>} combiner {
    ^bb0(%acc: i32, %v: i32):
      %s = arith.addi %acc, %v : i32
      btensor.yield %s : i32
  } : !buffer.buf<4x3xi32>
  %m2, %z = btensor.map_reduce %m1 ins(%y : !buffer.buf<4x3xi32>) init(%one : i32)
      {out_rank = 3 : i64, shape = array<i64: 4, 1, 3>, maps = [affine_map<(a, b, c) -> (a, c)>],
      out_map = affine_map<(a, b, c) -> (a, b, c)>} combiner {
    ^bb0(%acc: i32, %e: i32):
      %n = arith.subi %e, %acc : i32
      btensor.yield %n : i32
  } : !buffer.buf<4x1x3xi32>
  func.return %m2, %z : !mem.M<0>, !buffer.buf<4x1x3xi32>
}

// CHECK:      func.func @compose(%m: !mem.M<0>, %x: !buffer.buf<3x4xi32>) -> (!mem.M<0>, !buffer.buf<4x1x3xi32>) {
// CHECK-NEXT:   %one = arith.constant 1 : i32
// CHECK-NEXT:   %m2, %z = btensor.map_reduce %m ins(%x : !buffer.buf<3x4xi32>) init(%one : i32) {out_rank = 3 : i64, shape = array<i64: 4, 1, 3>, maps = [affine_map<(d0, d1, d2) -> (d2, d0)>], out_map = affine_map<(d0, d1, d2) -> (d0, d1, d2)>} combiner {
// CHECK-NEXT:   ^bb0(%acc: i32, %v: i32):
// CHECK-NEXT:     %s = arith.addi %one, %v : i32
// CHECK-NEXT:     %n = arith.subi %s, %acc : i32
// CHECK-NEXT:     btensor.yield %n : i32
// CHECK-NEXT:   } : !buffer.buf<4x1x3xi32>
// CHECK-NEXT:   func.return %m2, %z : !mem.M<0>, !buffer.buf<4x1x3xi32>
// CHECK-NEXT: }

// -----

// What is not fused: the ops stay as they are.

// A producer that reduces (row sums) is not a map.

func.func @reduces(%m: !mem.M<0>, %x: !buffer.buf<2x3xf32>) -> (!mem.M<0>, !buffer.buf<2xf32>) {
  %zero = arith.constant 0.0 : f32
  %m1, %y = btensor.map_reduce %m ins(%x : !buffer.buf<2x3xf32>) init(%zero : f32)
      {out_rank = 1 : i64, shape = array<i64: 2, 3>, maps = [affine_map<(i, k) -> (i, k)>],
      out_map = affine_map<(i) -> (i)>} combiner {
    ^bb0(%acc: f32, %v: f32):
      %s = arith.addf %acc, %v : f32
      btensor.yield %s : f32
  } : !buffer.buf<2xf32>
  %m2, %z = btensor.map_reduce %m1 ins(%y : !buffer.buf<2xf32>) init(%zero : f32)
      {out_rank = 1 : i64, shape = array<i64: 2>, maps = [affine_map<(i) -> (i)>],
      out_map = affine_map<(i) -> (i)>} combiner {
    ^bb0(%acc: f32, %v: f32):
      %n = arith.negf %v : f32
      btensor.yield %n : f32
  } : !buffer.buf<2xf32>
  func.return %m2, %z : !mem.M<0>, !buffer.buf<2xf32>
}

// CHECK-LABEL: func.func @reduces(
// CHECK:         %m1, %y = btensor.map_reduce %m ins(%x
// CHECK:         %m2, %z = btensor.map_reduce %m1 ins(%y

// -----

// The producer's output is used by the host too (returned).

func.func @host_use(%m: !mem.M<0>, %x: !buffer.buf<4xf32>)
    -> (!mem.M<0>, !buffer.buf<4xf32>, !buffer.buf<4xf32>) {
  %zero = arith.constant 0.0 : f32
  %m1, %y = btensor.map_reduce %m ins(%x : !buffer.buf<4xf32>) init(%zero : f32)
      {out_rank = 1 : i64, shape = array<i64: 4>, maps = [affine_map<(i) -> (i)>],
      out_map = affine_map<(i) -> (i)>} combiner {
    ^bb0(%acc: f32, %v: f32):
      %n = arith.negf %v : f32
      btensor.yield %n : f32
  } : !buffer.buf<4xf32>
  %m2, %z = btensor.map_reduce %m1 ins(%y : !buffer.buf<4xf32>) init(%zero : f32)
      {out_rank = 1 : i64, shape = array<i64: 4>, maps = [affine_map<(i) -> (i)>],
      out_map = affine_map<(i) -> (i)>} combiner {
    ^bb0(%acc: f32, %v: f32):
      %n = arith.negf %v : f32
      btensor.yield %n : f32
  } : !buffer.buf<4xf32>
  func.return %m2, %y, %z : !mem.M<0>, !buffer.buf<4xf32>, !buffer.buf<4xf32>
}

// CHECK-LABEL: func.func @host_use(
// CHECK:         %m1, %y = btensor.map_reduce %m ins(%x
// CHECK:         %m2, %z = btensor.map_reduce %m1 ins(%y

// -----

// A transposed read (a permutation).

func.func @transposed(%m: !mem.M<0>, %x: !buffer.buf<3x3xf32>) -> (!mem.M<0>, !buffer.buf<3x3xf32>) {
  %zero = arith.constant 0.0 : f32
  %m1, %y = btensor.map_reduce %m ins(%x : !buffer.buf<3x3xf32>) init(%zero : f32)
      {out_rank = 2 : i64, shape = array<i64: 3, 3>, maps = [affine_map<(i, j) -> (i, j)>],
      out_map = affine_map<(i, j) -> (i, j)>} combiner {
    ^bb0(%acc: f32, %v: f32):
      %n = arith.negf %v : f32
      btensor.yield %n : f32
  } : !buffer.buf<3x3xf32>
  %m2, %z = btensor.map_reduce %m1 ins(%y : !buffer.buf<3x3xf32>) init(%zero : f32)
      {out_rank = 2 : i64, shape = array<i64: 3, 3>, maps = [affine_map<(i, j) -> (j, i)>],
      out_map = affine_map<(i, j) -> (i, j)>} combiner {
    ^bb0(%acc: f32, %v: f32):
      %n = arith.negf %v : f32
      btensor.yield %n : f32
  } : !buffer.buf<3x3xf32>
  func.return %m2, %z : !mem.M<0>, !buffer.buf<3x3xf32>
}

// CHECK-LABEL: func.func @transposed(
// CHECK:         %m1, %y = btensor.map_reduce %m ins(%x
// CHECK:         %m2, %z = btensor.map_reduce %m1 ins(%y

// -----

// A broadcast read: the consumer (4 x 3) reads y[i] for every j, which would compute each cell
// of y three times.

func.func @broadcast(%m: !mem.M<0>, %x: !buffer.buf<4xf32>) -> (!mem.M<0>, !buffer.buf<4x3xf32>) {
  %zero = arith.constant 0.0 : f32
  %m1, %y = btensor.map_reduce %m ins(%x : !buffer.buf<4xf32>) init(%zero : f32)
      {out_rank = 1 : i64, shape = array<i64: 4>, maps = [affine_map<(i) -> (i)>],
      out_map = affine_map<(i) -> (i)>} combiner {
    ^bb0(%acc: f32, %v: f32):
      %n = arith.negf %v : f32
      btensor.yield %n : f32
  } : !buffer.buf<4xf32>
  %m2, %z = btensor.map_reduce %m1 ins(%y : !buffer.buf<4xf32>) init(%zero : f32)
      {out_rank = 2 : i64, shape = array<i64: 4, 3>, maps = [affine_map<(i, j) -> (i)>],
      out_map = affine_map<(i, j) -> (i, j)>} combiner {
    ^bb0(%acc: f32, %v: f32):
      %n = arith.negf %v : f32
      btensor.yield %n : f32
  } : !buffer.buf<4x3xf32>
  func.return %m2, %z : !mem.M<0>, !buffer.buf<4x3xf32>
}

// CHECK-LABEL: func.func @broadcast(
// CHECK:         %m1, %y = btensor.map_reduce %m ins(%x
// CHECK:         %m2, %z = btensor.map_reduce %m1 ins(%y

// -----

// A shifted read of a longer output: z[i] = y[i + 1].

func.func @shifted(%m: !mem.M<0>, %x: !buffer.buf<5xf32>) -> (!mem.M<0>, !buffer.buf<4xf32>) {
  %zero = arith.constant 0.0 : f32
  %m1, %y = btensor.map_reduce %m ins(%x : !buffer.buf<5xf32>) init(%zero : f32)
      {out_rank = 1 : i64, shape = array<i64: 5>, maps = [affine_map<(i) -> (i)>],
      out_map = affine_map<(i) -> (i)>} combiner {
    ^bb0(%acc: f32, %v: f32):
      %n = arith.negf %v : f32
      btensor.yield %n : f32
  } : !buffer.buf<5xf32>
  %m2, %z = btensor.map_reduce %m1 ins(%y : !buffer.buf<5xf32>) init(%zero : f32)
      {out_rank = 1 : i64, shape = array<i64: 4>, maps = [affine_map<(i) -> (i + 1)>],
      out_map = affine_map<(i) -> (i)>} combiner {
    ^bb0(%acc: f32, %v: f32):
      %n = arith.negf %v : f32
      btensor.yield %n : f32
  } : !buffer.buf<4xf32>
  func.return %m2, %z : !mem.M<0>, !buffer.buf<4xf32>
}

// CHECK-LABEL: func.func @shifted(
// CHECK:         %m1, %y = btensor.map_reduce %m ins(%x
// CHECK:         %m2, %z = btensor.map_reduce %m1 ins(%y

// -----

// The producer stores reversed (its out_map is not the identity).

func.func @reversed(%m: !mem.M<0>, %x: !buffer.buf<4xf32>) -> (!mem.M<0>, !buffer.buf<4xf32>) {
  %zero = arith.constant 0.0 : f32
  %m1, %y = btensor.map_reduce %m ins(%x : !buffer.buf<4xf32>) init(%zero : f32)
      {out_rank = 1 : i64, shape = array<i64: 4>, maps = [affine_map<(i) -> (i)>],
      out_map = affine_map<(i) -> (3 - i)>} combiner {
    ^bb0(%acc: f32, %v: f32):
      %n = arith.negf %v : f32
      btensor.yield %n : f32
  } : !buffer.buf<4xf32>
  %m2, %z = btensor.map_reduce %m1 ins(%y : !buffer.buf<4xf32>) init(%zero : f32)
      {out_rank = 1 : i64, shape = array<i64: 4>, maps = [affine_map<(i) -> (i)>],
      out_map = affine_map<(i) -> (i)>} combiner {
    ^bb0(%acc: f32, %v: f32):
      %n = arith.negf %v : f32
      btensor.yield %n : f32
  } : !buffer.buf<4xf32>
  func.return %m2, %z : !mem.M<0>, !buffer.buf<4xf32>
}

// CHECK-LABEL: func.func @reversed(
// CHECK:         %m1, %y = btensor.map_reduce %m ins(%x
// CHECK:         %m2, %z = btensor.map_reduce %m1 ins(%y

// -----

// The consumer reads the output as a post input.

func.func @post_input(%m: !mem.M<0>, %x: !buffer.buf<4xf32>) -> (!mem.M<0>, !buffer.buf<4xf32>) {
  %zero = arith.constant 0.0 : f32
  %m1, %y = btensor.map_reduce %m ins(%x : !buffer.buf<4xf32>) init(%zero : f32)
      {out_rank = 1 : i64, shape = array<i64: 4>, maps = [affine_map<(i) -> (i)>],
      out_map = affine_map<(i) -> (i)>} combiner {
    ^bb0(%acc: f32, %v: f32):
      %n = arith.negf %v : f32
      btensor.yield %n : f32
  } : !buffer.buf<4xf32>
  %m2, %z = btensor.map_reduce_post %m1 ins(%x : !buffer.buf<4xf32>) post_ins(%y : !buffer.buf<4xf32>)
      init(%zero : f32) {out_rank = 1 : i64, shape = array<i64: 4>,
      maps = [affine_map<(i) -> (i)>], post_maps = [affine_map<(i) -> (i)>],
      out_map = affine_map<(i) -> (i)>} combiner {
    ^bb0(%acc: f32, %v: f32):
      btensor.yield %v : f32
  } epilogue {
    ^bb0(%acc: f32, %e: f32):
      %s = arith.addf %acc, %e : f32
      btensor.yield %s : f32
  } : !buffer.buf<4xf32>
  func.return %m2, %z : !mem.M<0>, !buffer.buf<4xf32>
}

// CHECK-LABEL: func.func @post_input(
// CHECK:         %m1, %y = btensor.map_reduce %m ins(%x
// CHECK:         %m2, %z = btensor.map_reduce_post %m1 ins(%x

// -----

// A host op on the token chain between them (buffer.print of x).

func.func @between(%m: !mem.M<0>, %x: !buffer.buf<4xf32>) -> (!mem.M<0>, !buffer.buf<4xf32>) {
  %zero = arith.constant 0.0 : f32
  %m1, %y = btensor.map_reduce %m ins(%x : !buffer.buf<4xf32>) init(%zero : f32)
      {out_rank = 1 : i64, shape = array<i64: 4>, maps = [affine_map<(i) -> (i)>],
      out_map = affine_map<(i) -> (i)>} combiner {
    ^bb0(%acc: f32, %v: f32):
      %n = arith.negf %v : f32
      btensor.yield %n : f32
  } : !buffer.buf<4xf32>
  %m2 = buffer.print %m1, %x : !buffer.buf<4xf32>
  %m3, %z = btensor.map_reduce %m2 ins(%y : !buffer.buf<4xf32>) init(%zero : f32)
      {out_rank = 1 : i64, shape = array<i64: 4>, maps = [affine_map<(i) -> (i)>],
      out_map = affine_map<(i) -> (i)>} combiner {
    ^bb0(%acc: f32, %v: f32):
      %n = arith.negf %v : f32
      btensor.yield %n : f32
  } : !buffer.buf<4xf32>
  func.return %m3, %z : !mem.M<0>, !buffer.buf<4xf32>
}

// CHECK-LABEL: func.func @between(
// CHECK:         %m1, %y = btensor.map_reduce %m ins(%x
// CHECK:         %m3, %z = btensor.map_reduce %m2 ins(%y

// -----

// The producer's init is computed at run time (a function argument): it stays on the CPU path,
// and fusing would take the consumer, which the GPU lowering takes, with it.

func.func @runtime_init(%m: !mem.M<0>, %x: !buffer.buf<4xf32>, %c: f32) -> (!mem.M<0>, !buffer.buf<4xf32>) {
  %zero = arith.constant 0.0 : f32
  %m1, %y = btensor.map_reduce %m ins(%x : !buffer.buf<4xf32>) init(%c : f32)
      {out_rank = 1 : i64, shape = array<i64: 4>, maps = [affine_map<(i) -> (i)>],
      out_map = affine_map<(i) -> (i)>} combiner {
    ^bb0(%acc: f32, %v: f32):
      %s = arith.addf %acc, %v : f32
      btensor.yield %s : f32
  } : !buffer.buf<4xf32>
  %m2, %z = btensor.map_reduce %m1 ins(%y : !buffer.buf<4xf32>) init(%zero : f32)
      {out_rank = 1 : i64, shape = array<i64: 4>, maps = [affine_map<(i) -> (i)>],
      out_map = affine_map<(i) -> (i)>} combiner {
    ^bb0(%acc: f32, %v: f32):
      %n = arith.negf %v : f32
      btensor.yield %n : f32
  } : !buffer.buf<4xf32>
  func.return %m2, %z : !mem.M<0>, !buffer.buf<4xf32>
}

// CHECK-LABEL: func.func @runtime_init(
// CHECK:         %m1, %y = btensor.map_reduce %m ins(%x
// CHECK:         %m2, %z = btensor.map_reduce %m1 ins(%y
