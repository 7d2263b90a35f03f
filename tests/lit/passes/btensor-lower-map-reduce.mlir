// RUN: gpu-opt %s -p btensor-lower-map-reduce --split-input-file | filecheck %s
// RUN: gpu-opt %S/../../../examples/matmul.mlir -p btensor-lower-map-reduce | filecheck %s --check-prefix=MATMUL
// RUN: gpu-opt %S/../../../examples/bias_relu.mlir -p btensor-lower-map-reduce | filecheck %s --check-prefix=BIAS-RELU
// RUN: gpu-opt %s -p btensor-lower-map-reduce --split-input-file --mlir-pass-statistics -o /dev/null 2>&1 | filecheck %s --check-prefix=STATS

// The statistics of the whole file: every map-reduce lowered.
// STATS:      {{^}}BTensorLowerMapReduce
// STATS-NEXT:   (S) 4 num-map-reduces-lowered - Number of map-reduces lowered to loop nests

// A matrix product: a loop nest over the output cells (i, j) carrying the token, an inner nest
// over k carrying the token and the accumulator, the combiner inlined, one write per cell.

func.func @matmul(%m: !mem.M<0>, %a: !buffer.buf<2x3xf32>, %b: !buffer.buf<3x4xf32>)
    -> (!mem.M<0>, !buffer.buf<2x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %m1, %c = btensor.map_reduce %m ins(%a, %b : !buffer.buf<2x3xf32>, !buffer.buf<3x4xf32>)
      init(%zero : f32) {out_rank = 2 : i64, shape = array<i64: 2, 4, 3>,
      maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>],
      out_map = affine_map<(i, j) -> (i, j)>} combiner {
    ^bb0(%acc: f32, %x: f32, %y: f32):
      %p = arith.mulf %x, %y : f32
      %s = arith.addf %acc, %p : f32
      btensor.yield %s : f32
  } : !buffer.buf<2x4xf32>
  func.return %m1, %c : !mem.M<0>, !buffer.buf<2x4xf32>
}

// CHECK:      func.func @matmul(%m: !mem.M<0>, %a: !buffer.buf<2x3xf32>, %b: !buffer.buf<3x4xf32>) -> (!mem.M<0>, !buffer.buf<2x4xf32>) {
// CHECK-NEXT:   %zero = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:   [[BUF:%.*]], %c = buffer.alloc %m : !buffer.buf<2x4xf32>
// CHECK-NEXT:   [[C2:%.*]] = arith.constant 2 : index
// CHECK-NEXT:   [[C4:%.*]] = arith.constant 4 : index
// CHECK-NEXT:   [[C3:%.*]] = arith.constant 3 : index
// CHECK-NEXT:   [[C0:%.*]] = arith.constant 0 : index
// CHECK-NEXT:   [[C1:%.*]] = arith.constant 1 : index
// CHECK-NEXT:   %m1 = scf.for [[I:%.*]] = [[C0]] to [[C2]] step [[C1]] iter_args([[ARG:%.*]] = [[BUF]]) -> (!mem.M<0>) {
// CHECK-NEXT:     [[FOR:%.*]] = scf.for [[I_2:%.*]] = [[C0]] to [[C4]] step [[C1]] iter_args([[ARG_2:%.*]] = [[ARG]]) -> (!mem.M<0>) {
// CHECK-NEXT:       [[FOR_2:%.*]], [[FOR_3:%.*]] = scf.for [[I_3:%.*]] = [[C0]] to [[C3]] step [[C1]] iter_args([[ARG_3:%.*]] = [[ARG_2]], [[ARG_4:%.*]] = %zero) -> (!mem.M<0>, f32) {
// CHECK-NEXT:         [[RD:%.*]], [[RD_2:%.*]] = buffer.read [[ARG_3]], %a{{\[}}[[I]], [[I_3]]] : !buffer.buf<2x3xf32>
// CHECK-NEXT:         [[RD_3:%.*]], [[RD_4:%.*]] = buffer.read [[RD]], %b{{\[}}[[I_3]], [[I_2]]] : !buffer.buf<3x4xf32>
// CHECK-NEXT:         %p = arith.mulf [[RD_2]], [[RD_4]] : f32
// CHECK-NEXT:         %s = arith.addf [[ARG_4]], %p : f32
// CHECK-NEXT:         scf.yield [[RD_3]], %s : !mem.M<0>, f32
// CHECK-NEXT:       }
// CHECK-NEXT:       [[WR:%.*]], [[WR_2:%.*]] = buffer.write [[FOR_2]], %c{{\[}}[[I]], [[I_2]]], [[FOR_3]] : !buffer.buf<2x4xf32>
// CHECK-NEXT:       scf.yield [[WR]] : !mem.M<0>
// CHECK-NEXT:     }
// CHECK-NEXT:     scf.yield [[FOR]] : !mem.M<0>
// CHECK-NEXT:   }
// CHECK-NEXT:   func.return %m1, %c : !mem.M<0>, !buffer.buf<2x4xf32>
// CHECK-NEXT: }

// -----

// A convolution with a bias, stored reversed: the maps' affine expressions become arith ops on
// the loop indices (`mod` corrected to be non-negative, as in MLIR); the post input is read at
// post_maps(output coordinates), the result stored at out_map(output coordinates).

func.func @conv(%m: !mem.M<0>, %x: !buffer.buf<6xi32>, %w: !buffer.buf<3xi32>,
                %bias: !buffer.buf<2xi32>) -> (!mem.M<0>, !buffer.buf<4xi32>) {
  %zero = arith.constant 0 : i32
  %m1, %y = btensor.map_reduce_post %m ins(%x, %w : !buffer.buf<6xi32>, !buffer.buf<3xi32>)
      post_ins(%bias : !buffer.buf<2xi32>) init(%zero : i32)
      {out_rank = 1 : i64, shape = array<i64: 4, 3>,
      maps = [affine_map<(i, k) -> (i + k)>, affine_map<(i, k) -> (k)>],
      post_maps = [affine_map<(i) -> (i mod 2)>],
      out_map = affine_map<(i) -> (3 - i)>} combiner {
    ^bb0(%acc: i32, %a: i32, %b: i32):
      %p = arith.muli %a, %b : i32
      %s = arith.addi %acc, %p : i32
      btensor.yield %s : i32
  } epilogue {
    ^bb0(%acc: i32, %c: i32):
      %v = arith.addi %acc, %c : i32
      btensor.yield %v : i32
  } : !buffer.buf<4xi32>
  func.return %m1, %y : !mem.M<0>, !buffer.buf<4xi32>
}

// CHECK:      func.func @conv(%m: !mem.M<0>, %x: !buffer.buf<6xi32>, %w: !buffer.buf<3xi32>, %bias: !buffer.buf<2xi32>) -> (!mem.M<0>, !buffer.buf<4xi32>) {
// CHECK-NEXT:   %zero = arith.constant 0 : i32
// CHECK-NEXT:   [[BUF:%.*]], %y = buffer.alloc %m : !buffer.buf<4xi32>
// CHECK-NEXT:   [[C4:%.*]] = arith.constant 4 : index
// CHECK-NEXT:   [[C3:%.*]] = arith.constant 3 : index
// CHECK-NEXT:   [[C0:%.*]] = arith.constant 0 : index
// CHECK-NEXT:   [[C1:%.*]] = arith.constant 1 : index
// CHECK-NEXT:   [[C2:%.*]] = arith.constant 2 : index
// CHECK-NEXT:   [[CM1:%.*]] = arith.constant -1 : index
// CHECK-NEXT:   %m1 = scf.for [[I:%.*]] = [[C0]] to [[C4]] step [[C1]] iter_args([[ARG:%.*]] = [[BUF]]) -> (!mem.M<0>) {
// CHECK-NEXT:     [[FOR:%.*]], [[FOR_2:%.*]] = scf.for [[I_2:%.*]] = [[C0]] to [[C3]] step [[C1]] iter_args([[ARG_2:%.*]] = [[ARG]], [[ARG_3:%.*]] = %zero) -> (!mem.M<0>, i32) {
// CHECK-NEXT:       [[ADDI:%.*]] = arith.addi [[I]], [[I_2]] : index
// CHECK-NEXT:       [[RD:%.*]], [[RD_2:%.*]] = buffer.read [[ARG_2]], %x{{\[}}[[ADDI]]] : !buffer.buf<6xi32>
// CHECK-NEXT:       [[RD_3:%.*]], [[RD_4:%.*]] = buffer.read [[RD]], %w{{\[}}[[I_2]]] : !buffer.buf<3xi32>
// CHECK-NEXT:       %p = arith.muli [[RD_2]], [[RD_4]] : i32
// CHECK-NEXT:       %s = arith.addi [[ARG_3]], %p : i32
// CHECK-NEXT:       scf.yield [[RD_3]], %s : !mem.M<0>, i32
// CHECK-NEXT:     }
// CHECK-NEXT:     [[REMSI:%.*]] = arith.remsi [[I]], [[C2]] : index
// CHECK-NEXT:     [[CMPI:%.*]] = arith.cmpi slt, [[REMSI]], [[C0]] : index
// CHECK-NEXT:     [[ADDI_2:%.*]] = arith.addi [[REMSI]], [[C2]] : index
// CHECK-NEXT:     [[SELECT:%.*]] = arith.select [[CMPI]], [[ADDI_2]], [[REMSI]] : index
// CHECK-NEXT:     [[RD_5:%.*]], [[RD_6:%.*]] = buffer.read [[FOR]], %bias{{\[}}[[SELECT]]] : !buffer.buf<2xi32>
// CHECK-NEXT:     %v = arith.addi [[FOR_2]], [[RD_6]] : i32
// CHECK-NEXT:     [[MULI:%.*]] = arith.muli [[I]], [[CM1]] : index
// CHECK-NEXT:     [[ADDI_3:%.*]] = arith.addi [[MULI]], [[C3]] : index
// CHECK-NEXT:     [[WR:%.*]], [[WR_2:%.*]] = buffer.write [[RD_5]], %y{{\[}}[[ADDI_3]]], %v : !buffer.buf<4xi32>
// CHECK-NEXT:     scf.yield [[WR]] : !mem.M<0>
// CHECK-NEXT:   }
// CHECK-NEXT:   func.return %m1, %y : !mem.M<0>, !buffer.buf<4xi32>
// CHECK-NEXT: }

// -----

// A full reduction (out_rank 0): no loop over output cells, one write into a rank-0 buffer.

func.func @sum(%m: !mem.M<0>, %x: !buffer.buf<8xf64>) -> (!mem.M<0>, !buffer.buf<f64>) {
  %zero = arith.constant 0.0 : f64
  %m1, %s = btensor.map_reduce %m ins(%x : !buffer.buf<8xf64>) init(%zero : f64)
      {out_rank = 0 : i64, shape = array<i64: 8>, maps = [affine_map<(k) -> (k)>],
      out_map = affine_map<() -> ()>} combiner {
    ^bb0(%acc: f64, %v: f64):
      %r = arith.addf %acc, %v : f64
      btensor.yield %r : f64
  } : !buffer.buf<f64>
  func.return %m1, %s : !mem.M<0>, !buffer.buf<f64>
}

// CHECK:      func.func @sum(%m: !mem.M<0>, %x: !buffer.buf<8xf64>) -> (!mem.M<0>, !buffer.buf<f64>) {
// CHECK-NEXT:   %zero = arith.constant 0.000000e+00 : f64
// CHECK-NEXT:   [[BUF:%.*]], %s = buffer.alloc %m : !buffer.buf<f64>
// CHECK-NEXT:   [[C8:%.*]] = arith.constant 8 : index
// CHECK-NEXT:   [[C0:%.*]] = arith.constant 0 : index
// CHECK-NEXT:   [[C1:%.*]] = arith.constant 1 : index
// CHECK-NEXT:   [[FOR:%.*]], [[FOR_2:%.*]] = scf.for [[I:%.*]] = [[C0]] to [[C8]] step [[C1]] iter_args([[ARG:%.*]] = [[BUF]], [[ARG_2:%.*]] = %zero) -> (!mem.M<0>, f64) {
// CHECK-NEXT:     [[RD:%.*]], [[RD_2:%.*]] = buffer.read [[ARG]], %x{{\[}}[[I]]] : !buffer.buf<8xf64>
// CHECK-NEXT:     %r = arith.addf [[ARG_2]], [[RD_2]] : f64
// CHECK-NEXT:     scf.yield [[RD]], %r : !mem.M<0>, f64
// CHECK-NEXT:   }
// CHECK-NEXT:   %m1, [[WR:%.*]] = buffer.write [[FOR]], %s[], [[FOR_2]] : !buffer.buf<f64>
// CHECK-NEXT:   func.return %m1, %s : !mem.M<0>, !buffer.buf<f64>
// CHECK-NEXT: }

// -----

// No reduction extents (a transpose): the combiner runs once per cell, on init and the inputs.

func.func @transpose(%m: !mem.M<0>, %x: !buffer.buf<3x2xi8>) -> (!mem.M<0>, !buffer.buf<2x3xi8>) {
  %zero = arith.constant 0 : i8
  %m1, %t = btensor.map_reduce %m ins(%x : !buffer.buf<3x2xi8>) init(%zero : i8)
      {out_rank = 2 : i64, shape = array<i64: 2, 3>, maps = [affine_map<(i, j) -> (j, i)>],
      out_map = affine_map<(i, j) -> (i, j)>} combiner {
    ^bb0(%acc: i8, %v: i8):
      btensor.yield %v : i8
  } : !buffer.buf<2x3xi8>
  func.return %m1, %t : !mem.M<0>, !buffer.buf<2x3xi8>
}

// CHECK:      func.func @transpose(%m: !mem.M<0>, %x: !buffer.buf<3x2xi8>) -> (!mem.M<0>, !buffer.buf<2x3xi8>) {
// CHECK-NEXT:   %zero = arith.constant 0 : i8
// CHECK-NEXT:   [[BUF:%.*]], %t = buffer.alloc %m : !buffer.buf<2x3xi8>
// CHECK-NEXT:   [[C2:%.*]] = arith.constant 2 : index
// CHECK-NEXT:   [[C3:%.*]] = arith.constant 3 : index
// CHECK-NEXT:   [[C0:%.*]] = arith.constant 0 : index
// CHECK-NEXT:   [[C1:%.*]] = arith.constant 1 : index
// CHECK-NEXT:   %m1 = scf.for [[I:%.*]] = [[C0]] to [[C2]] step [[C1]] iter_args([[ARG:%.*]] = [[BUF]]) -> (!mem.M<0>) {
// CHECK-NEXT:     [[FOR:%.*]] = scf.for [[I_2:%.*]] = [[C0]] to [[C3]] step [[C1]] iter_args([[ARG_2:%.*]] = [[ARG]]) -> (!mem.M<0>) {
// CHECK-NEXT:       [[RD:%.*]], [[RD_2:%.*]] = buffer.read [[ARG_2]], %x{{\[}}[[I_2]], [[I]]] : !buffer.buf<3x2xi8>
// CHECK-NEXT:       [[WR:%.*]], [[WR_2:%.*]] = buffer.write [[RD]], %t{{\[}}[[I]], [[I_2]]], [[RD_2]] : !buffer.buf<2x3xi8>
// CHECK-NEXT:       scf.yield [[WR]] : !mem.M<0>
// CHECK-NEXT:     }
// CHECK-NEXT:     scf.yield [[FOR]] : !mem.M<0>
// CHECK-NEXT:   }
// CHECK-NEXT:   func.return %m1, %t : !mem.M<0>, !buffer.buf<2x3xi8>
// CHECK-NEXT: }

// -----

// A program without map-reduce ops is left as it is.

func.func @untouched(%m: !mem.M<0>, %b: !buffer.buf<4xf32>, %i: index) -> (!mem.M<0>, f32) {
  %m1, %v = buffer.read %m, %b[%i] : !buffer.buf<4xf32>
  func.return %m1, %v : !mem.M<0>, f32
}

// CHECK:      func.func @untouched(%m: !mem.M<0>, %b: !buffer.buf<4xf32>, %i: index) -> (!mem.M<0>, f32) {
// CHECK-NEXT:   %m1, %v = buffer.read %m, %b{{\[}}%i] : !buffer.buf<4xf32>
// CHECK-NEXT:   func.return %m1, %v : !mem.M<0>, f32
// CHECK-NEXT: }

// The examples (the RUN lines at the top), from the map-reduce on: examples/matmul.mlir ...

// MATMUL:        %zero = arith.constant 0.000000e+00 : f32
// MATMUL-NEXT:   [[BUF:%.*]], %c = buffer.alloc %m2 : !buffer.buf<4x4xf32>
// MATMUL-NEXT:   [[C4:%.*]] = arith.constant 4 : index
// MATMUL-NEXT:   [[C8:%.*]] = arith.constant 8 : index
// MATMUL-NEXT:   [[C0:%.*]] = arith.constant 0 : index
// MATMUL-NEXT:   [[C1:%.*]] = arith.constant 1 : index
// MATMUL-NEXT:   %m3 = scf.for [[I:%.*]] = [[C0]] to [[C4]] step [[C1]] iter_args([[ARG:%.*]] = [[BUF]]) -> (!mem.M<0>) {
// MATMUL-NEXT:     [[FOR:%.*]] = scf.for [[I_2:%.*]] = [[C0]] to [[C4]] step [[C1]] iter_args([[ARG_2:%.*]] = [[ARG]]) -> (!mem.M<0>) {
// MATMUL-NEXT:       [[FOR_2:%.*]], [[FOR_3:%.*]] = scf.for [[I_3:%.*]] = [[C0]] to [[C8]] step [[C1]] iter_args([[ARG_3:%.*]] = [[ARG_2]], [[ARG_4:%.*]] = %zero) -> (!mem.M<0>, f32) {
// MATMUL-NEXT:         [[RD:%.*]], [[RD_2:%.*]] = buffer.read [[ARG_3]], %a{{\[}}[[I]], [[I_3]]] : !buffer.buf<4x8xf32>
// MATMUL-NEXT:         [[RD_3:%.*]], [[RD_4:%.*]] = buffer.read [[RD]], %b{{\[}}[[I_3]], [[I_2]]] : !buffer.buf<8x4xf32>
// MATMUL-NEXT:         %p = arith.mulf [[RD_2]], [[RD_4]] : f32
// MATMUL-NEXT:         %s = arith.addf [[ARG_4]], %p : f32
// MATMUL-NEXT:         scf.yield [[RD_3]], %s : !mem.M<0>, f32
// MATMUL-NEXT:       }
// MATMUL-NEXT:       [[WR:%.*]], [[WR_2:%.*]] = buffer.write [[FOR_2]], %c{{\[}}[[I]], [[I_2]]], [[FOR_3]] : !buffer.buf<4x4xf32>
// MATMUL-NEXT:       scf.yield [[WR]] : !mem.M<0>
// MATMUL-NEXT:     }
// MATMUL-NEXT:     scf.yield [[FOR]] : !mem.M<0>
// MATMUL-NEXT:   }
// MATMUL-NEXT:   %m4 = buffer.print %m3, %c : !buffer.buf<4x4xf32>
// MATMUL-NEXT:   func.return %m4 : !mem.M<0>
// MATMUL-NEXT: }

// ... and examples/bias_relu.mlir, whose epilogue reads the bias at post_maps(i, j) = (j).

// BIAS-RELU:        %zero = arith.constant 0 : i32
// BIAS-RELU-NEXT:   [[BUF:%.*]], %y = buffer.alloc %m3 : !buffer.buf<2x4xi32>
// BIAS-RELU-NEXT:   [[C2:%.*]] = arith.constant 2 : index
// BIAS-RELU-NEXT:   [[C4:%.*]] = arith.constant 4 : index
// BIAS-RELU-NEXT:   [[C3:%.*]] = arith.constant 3 : index
// BIAS-RELU-NEXT:   [[C0:%.*]] = arith.constant 0 : index
// BIAS-RELU-NEXT:   [[C1:%.*]] = arith.constant 1 : index
// BIAS-RELU-NEXT:   %m4 = scf.for [[I:%.*]] = [[C0]] to [[C2]] step [[C1]] iter_args([[ARG:%.*]] = [[BUF]]) -> (!mem.M<0>) {
// BIAS-RELU-NEXT:     [[FOR:%.*]] = scf.for [[I_2:%.*]] = [[C0]] to [[C4]] step [[C1]] iter_args([[ARG_2:%.*]] = [[ARG]]) -> (!mem.M<0>) {
// BIAS-RELU-NEXT:       [[FOR_2:%.*]], [[FOR_3:%.*]] = scf.for [[I_3:%.*]] = [[C0]] to [[C3]] step [[C1]] iter_args([[ARG_3:%.*]] = [[ARG_2]], [[ARG_4:%.*]] = %zero) -> (!mem.M<0>, i32) {
// BIAS-RELU-NEXT:         [[RD:%.*]], [[RD_2:%.*]] = buffer.read [[ARG_3]], %x{{\[}}[[I]], [[I_3]]] : !buffer.buf<2x3xi32>
// BIAS-RELU-NEXT:         [[RD_3:%.*]], [[RD_4:%.*]] = buffer.read [[RD]], %w{{\[}}[[I_3]], [[I_2]]] : !buffer.buf<3x4xi32>
// BIAS-RELU-NEXT:         %p = arith.muli [[RD_2]], [[RD_4]] : i32
// BIAS-RELU-NEXT:         %s = arith.addi [[ARG_4]], %p : i32
// BIAS-RELU-NEXT:         scf.yield [[RD_3]], %s : !mem.M<0>, i32
// BIAS-RELU-NEXT:       }
// BIAS-RELU-NEXT:       [[RD_5:%.*]], [[RD_6:%.*]] = buffer.read [[FOR_2]], %bias{{\[}}[[I_2]]] : !buffer.buf<4xi32>
// BIAS-RELU-NEXT:       %z = arith.constant 0 : i32
// BIAS-RELU-NEXT:       %v = arith.addi [[FOR_3]], [[RD_6]] : i32
// BIAS-RELU-NEXT:       %r = arith.maxsi %v, %z : i32
// BIAS-RELU-NEXT:       [[WR:%.*]], [[WR_2:%.*]] = buffer.write [[RD_5]], %y{{\[}}[[I]], [[I_2]]], %r : !buffer.buf<2x4xi32>
// BIAS-RELU-NEXT:       scf.yield [[WR]] : !mem.M<0>
// BIAS-RELU-NEXT:     }
// BIAS-RELU-NEXT:     scf.yield [[FOR]] : !mem.M<0>
// BIAS-RELU-NEXT:   }
// BIAS-RELU-NEXT:   %m5 = buffer.print %m4, %y : !buffer.buf<2x4xi32>
// BIAS-RELU-NEXT:   func.return %m5 : !mem.M<0>
// BIAS-RELU-NEXT: }
