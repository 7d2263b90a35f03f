// RUN: gpu-opt %s -p lower-btensor-map-reduce --split-input-file 2>&1 >/dev/null | filecheck %s --check-prefix=WARN
// RUN: gpu-opt %s -p lower-btensor-map-reduce --split-input-file 2>/dev/null | filecheck %s

// Where the GPU lowering does not apply it warns (on stderr) and leaves the op to the CPU path
// (btensor-lower-map-reduce): the IR is unchanged.

// An empty output ...

func.func @empty(%m: !mem.M<0>, %x: !buffer.buf<0x4xf32>) -> (!mem.M<0>, !buffer.buf<0x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %m1, %y = btensor.map_reduce %m ins(%x : !buffer.buf<0x4xf32>) init(%zero : f32)
      {out_rank = 2 : i64, shape = array<i64: 0, 4>, maps = [affine_map<(i, j) -> (i, j)>],
      out_map = affine_map<(i, j) -> (i, j)>} combiner {
    ^bb0(%acc: f32, %v: f32):
      btensor.yield %v : f32
  } : !buffer.buf<0x4xf32>
  func.return %m1, %y : !mem.M<0>, !buffer.buf<0x4xf32>
}

// WARN: lower-btensor-map-reduce-invalid.mlir:[[# @LINE - 9]]:3: warning: 'btensor.map_reduce' has a zero-sized output, skipping GPU lowering

// CHECK:      func.func @empty(%m: !mem.M<0>, %x: !buffer.buf<0x4xf32>) -> (!mem.M<0>, !buffer.buf<0x4xf32>) {
// CHECK-NEXT:   %zero = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:   %m1, %y = btensor.map_reduce %m ins(%x : !buffer.buf<0x4xf32>) init(%zero : f32) {out_rank = 2 : i64, shape = array<i64: 0, 4>, maps = [affine_map<(d0, d1) -> (d0, d1)>], out_map = affine_map<(d0, d1) -> (d0, d1)>} combiner {
// CHECK-NEXT:   ^bb0(%acc: f32, %v: f32):
// CHECK-NEXT:     btensor.yield %v : f32
// CHECK-NEXT:   } : !buffer.buf<0x4xf32>
// CHECK-NEXT:   func.return %m1, %y : !mem.M<0>, !buffer.buf<0x4xf32>
// CHECK-NEXT: }

// -----

// ... an explicit gpu.init anywhere in the program (warned at the gpu.init; no op is
// lowered) ...

func.func @explicit(%m: !mem.M<0>, %x: !buffer.buf<4xf32>) -> (!mem.M<0>, !buffer.buf<4xf32>) {
  %zero = arith.constant 0.0 : f32
  %m1, %y = btensor.map_reduce %m ins(%x : !buffer.buf<4xf32>) init(%zero : f32)
      {out_rank = 1 : i64, shape = array<i64: 4>, maps = [affine_map<(i) -> (i)>],
      out_map = affine_map<(i) -> (i)>} combiner {
    ^bb0(%acc: f32, %v: f32):
      btensor.yield %v : f32
  } : !buffer.buf<4xf32>
  func.return %m1, %y : !mem.M<0>, !buffer.buf<4xf32>
}

func.func @session(%m: !mem.M<0>) -> !mem.M<0> {
  %m0, %m1, %m4 = gpu.init %m
  %done = gpu.deinit %m0, %m1, %m4
  func.return %done : !mem.M<0>
}

// WARN: lower-btensor-map-reduce-invalid.mlir:[[# @LINE - 5]]:3: warning: not lowering any map-reduce operations to GPU: the program already contains an explicit `gpu.init`

// CHECK:      func.func @explicit(%m: !mem.M<0>, %x: !buffer.buf<4xf32>) -> (!mem.M<0>, !buffer.buf<4xf32>) {
// CHECK-NEXT:   %zero = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:   %m1, %y = btensor.map_reduce %m ins(%x : !buffer.buf<4xf32>) init(%zero : f32) {out_rank = 1 : i64, shape = array<i64: 4>, maps = [affine_map<(d0) -> (d0)>], out_map = affine_map<(d0) -> (d0)>} combiner {
// CHECK-NEXT:   ^bb0(%acc: f32, %v: f32):
// CHECK-NEXT:     btensor.yield %v : f32
// CHECK-NEXT:   } : !buffer.buf<4xf32>
// CHECK-NEXT:   func.return %m1, %y : !mem.M<0>, !buffer.buf<4xf32>
// CHECK-NEXT: }
// CHECK-NEXT: func.func @session(%m: !mem.M<0>) -> !mem.M<0> {
// CHECK-NEXT:   %m0, %m1, %m4 = gpu.init %m
// CHECK-NEXT:   %done = gpu.deinit %m0, %m1, %m4
// CHECK-NEXT:   func.return %done : !mem.M<0>
// CHECK-NEXT: }

// -----

// ... an input of run-time shape (its device copy would need the run-time extent) ...

func.func @dynamic(%m: !mem.M<0>, %x: !buffer.buf<?x4xf32>) -> (!mem.M<0>, !buffer.buf<4xf32>) {
  %zero = arith.constant 0.0 : f32
  %m1, %y = btensor.map_reduce %m ins(%x : !buffer.buf<?x4xf32>) init(%zero : f32)
      {out_rank = 1 : i64, shape = array<i64: 4, 2>, maps = [affine_map<(j, i) -> (i, j)>],
      out_map = affine_map<(j) -> (j)>} combiner {
    ^bb0(%acc: f32, %v: f32):
      %s = arith.addf %acc, %v : f32
      btensor.yield %s : f32
  } : !buffer.buf<4xf32>
  func.return %m1, %y : !mem.M<0>, !buffer.buf<4xf32>
}

// WARN: lower-btensor-map-reduce-invalid.mlir:[[# @LINE - 10]]:3: warning: 'btensor.map_reduce' reads a buffer of run-time shape (!buffer.buf<?x4xf32>), skipping GPU lowering

// CHECK:      func.func @dynamic(%m: !mem.M<0>, %x: !buffer.buf<?x4xf32>) -> (!mem.M<0>, !buffer.buf<4xf32>) {
// CHECK-NEXT:   %zero = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:   %m1, %y = btensor.map_reduce %m ins(%x : !buffer.buf<?x4xf32>)

// -----

// ... and an init value, or a value a region uses from outside, that is computed at run time:
// a kernel cannot capture it. (Constants and pure ops on them are copied into the kernel.)

func.func @runtime_init(%m: !mem.M<0>, %x: !buffer.buf<4xf32>, %init: f32)
    -> (!mem.M<0>, !buffer.buf<4xf32>) {
  %m1, %y = btensor.map_reduce_post %m ins(%x : !buffer.buf<4xf32>) init(%init : f32)
      {out_rank = 1 : i64, shape = array<i64: 4>, maps = [affine_map<(i) -> (i)>],
      post_maps = [], out_map = affine_map<(i) -> (i)>} combiner {
    ^bb0(%acc: f32, %v: f32):
      btensor.yield %v : f32
  } epilogue {
    ^bb0(%acc: f32):
      btensor.yield %acc : f32
  } : !buffer.buf<4xf32>
  func.return %m1, %y : !mem.M<0>, !buffer.buf<4xf32>
}

// WARN: lower-btensor-map-reduce-invalid.mlir:[[# @LINE - 12]]:3: warning: 'btensor.map_reduce_post' doesn't have a lowering-time known combiner/epilogue (its init or regions use a value computed at run time), skipping GPU lowering

// CHECK:      func.func @runtime_init(%m: !mem.M<0>, %x: !buffer.buf<4xf32>, %init: f32) -> (!mem.M<0>, !buffer.buf<4xf32>) {
// CHECK-NEXT:   %m1, %y = btensor.map_reduce_post %m ins(%x : !buffer.buf<4xf32>) init(%init : f32)

// -----

func.func @runtime_capture(%m: !mem.M<0>, %x: !buffer.buf<4xf32>, %s: !buffer.buf<f32>)
    -> (!mem.M<0>, !buffer.buf<4xf32>) {
  %zero = arith.constant 0.0 : f32
  %m1, %scale = buffer.read %m, %s[] : !buffer.buf<f32>
  %m2, %y = btensor.map_reduce %m1 ins(%x : !buffer.buf<4xf32>) init(%zero : f32)
      {out_rank = 1 : i64, shape = array<i64: 4>, maps = [affine_map<(i) -> (i)>],
      out_map = affine_map<(i) -> (i)>} combiner {
    ^bb0(%acc: f32, %v: f32):
      %r = arith.mulf %v, %scale : f32
      btensor.yield %r : f32
  } : !buffer.buf<4xf32>
  func.return %m2, %y : !mem.M<0>, !buffer.buf<4xf32>
}

// WARN: lower-btensor-map-reduce-invalid.mlir:[[# @LINE - 10]]:3: warning: 'btensor.map_reduce' doesn't have a lowering-time known combiner/epilogue (its init or regions use a value computed at run time), skipping GPU lowering

// CHECK:      func.func @runtime_capture(%m: !mem.M<0>, %x: !buffer.buf<4xf32>, %s: !buffer.buf<f32>) -> (!mem.M<0>, !buffer.buf<4xf32>) {
// CHECK-NEXT:   %zero = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:   %m1, %scale = buffer.read %m, %s[] : !buffer.buf<f32>
// CHECK-NEXT:   %m2, %y = btensor.map_reduce %m1 ins(%x : !buffer.buf<4xf32>)
