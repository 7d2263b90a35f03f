// RUN: gpu-opt %s -p lower-btensor-map-reduce --split-input-file | filecheck %s
// RUN: gpu-opt %S/../../../examples/matmul.mlir -p lower-btensor-map-reduce | filecheck %s --check-prefix=MATMUL
// RUN: gpu-opt %S/../../../examples/bias_relu.mlir -p lower-btensor-map-reduce | filecheck %s --check-prefix=BIAS-RELU

// A matrix product. The kernel: one work-item per output cell; flat = group_id * n_items +
// item_id, un-flattened row-major into (i, j) (the 8 items of the one group are the 8 cells: no
// flat < 8 check); a sequential loop over k carries the global token and the accumulator;
// inputs are loaded through chained mem.lea. The host: a compiler-inserted session, device
// copies of the inputs, the output allocated on the device, one group of 8 items on the default
// stream, the result copied into a new host buffer, every device pointer freed.

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

// CHECK:      func.func @map_reduce_kernel_0(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>, %group_id: index, %item_id: index, %in0: !mem.ptr<!mem.array<2 x !mem.array<3 x f32>>, 1>, %in1: !mem.ptr<!mem.array<3 x !mem.array<4 x f32>>, 1>, %out: !mem.ptr<!mem.array<2 x !mem.array<4 x f32>>, 1>) -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
// CHECK-NEXT:   %zero = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:   [[C8:%.*]] = arith.constant 8 : index
// CHECK-NEXT:   [[MULI:%.*]] = arith.muli %group_id, [[C8]] : index
// CHECK-NEXT:   %flat = arith.addi [[MULI]], %item_id : index
// CHECK-NEXT:   [[C4:%.*]] = arith.constant 4 : index
// CHECK-NEXT:   [[C3:%.*]] = arith.constant 3 : index
// CHECK-NEXT:   [[C0:%.*]] = arith.constant 0 : index
// CHECK-NEXT:   [[C1:%.*]] = arith.constant 1 : index
// CHECK-NEXT:   [[DIVUI:%.*]] = arith.divui %flat, [[C4]] : index
// CHECK-NEXT:   [[REMUI:%.*]] = arith.remui %flat, [[C4]] : index
// CHECK-NEXT:   [[FOR:%.*]], [[FOR_2:%.*]] = scf.for [[I:%.*]] = [[C0]] to [[C3]] step [[C1]] iter_args([[ARG:%.*]] = %m1, [[ARG_2:%.*]] = %zero) -> (!mem.M<1>, f32) {
// CHECK-NEXT:     [[P:%.*]] = mem.lea %in0, [[DIVUI]] : !mem.ptr<!mem.array<2 x !mem.array<3 x f32>>, 1>
// CHECK-NEXT:     [[P_2:%.*]] = mem.lea [[P]], [[I]] : !mem.ptr<!mem.array<3 x f32>, 1>
// CHECK-NEXT:     [[LD:%.*]], [[LD_2:%.*]] = mem.load [[ARG]], [[P_2]] : !mem.ptr<f32, 1>
// CHECK-NEXT:     [[P_3:%.*]] = mem.lea %in1, [[I]] : !mem.ptr<!mem.array<3 x !mem.array<4 x f32>>, 1>
// CHECK-NEXT:     [[P_4:%.*]] = mem.lea [[P_3]], [[REMUI]] : !mem.ptr<!mem.array<4 x f32>, 1>
// CHECK-NEXT:     [[LD_3:%.*]], [[LD_4:%.*]] = mem.load [[LD]], [[P_4]] : !mem.ptr<f32, 1>
// CHECK-NEXT:     %p = arith.mulf [[LD_2]], [[LD_4]] : f32
// CHECK-NEXT:     %s = arith.addf [[ARG_2]], %p : f32
// CHECK-NEXT:     scf.yield [[LD_3]], %s : !mem.M<1>, f32
// CHECK-NEXT:   }
// CHECK-NEXT:   [[P_5:%.*]] = mem.lea %out, [[DIVUI]] : !mem.ptr<!mem.array<2 x !mem.array<4 x f32>>, 1>
// CHECK-NEXT:   [[P_6:%.*]] = mem.lea [[P_5]], [[REMUI]] : !mem.ptr<!mem.array<4 x f32>, 1>
// CHECK-NEXT:   [[ST:%.*]] = mem.store [[FOR]], [[P_6]], [[FOR_2]] : !mem.ptr<f32, 1>
// CHECK-NEXT:   func.return [[ST]], %m3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
// CHECK-NEXT: }
// CHECK-NEXT: func.func @matmul(%m: !mem.M<0>, %a: !buffer.buf<2x3xf32>, %b: !buffer.buf<3x4xf32>) -> (!mem.M<0>, !buffer.buf<2x4xf32>) {
// CHECK-NEXT:   %zero = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:   [[S:%.*]], [[S_2:%.*]], [[S_3:%.*]] = gpu.auto_init %m
// CHECK-NEXT:   [[CP:%.*]], [[CP_2:%.*]], %a_dev = gpu.buf_alloc_copy [[S]], [[S_2]], %a : !buffer.buf<2x3xf32> -> !mem.ptr<!mem.array<2 x !mem.array<3 x f32>>, 1>
// CHECK-NEXT:   [[CP_3:%.*]], [[CP_4:%.*]], %b_dev = gpu.buf_alloc_copy [[CP]], [[CP_2]], %b : !buffer.buf<3x4xf32> -> !mem.ptr<!mem.array<3 x !mem.array<4 x f32>>, 1>
// CHECK-NEXT:   [[DEV:%.*]], %c_dev = gpu.alloc.block [[CP_4]] : !mem.ptr<!mem.array<2 x !mem.array<4 x f32>>, 1>
// CHECK-NEXT:   [[STREAM:%.*]] = gpu.default_stream
// CHECK-NEXT:   [[C1_2:%.*]] = arith.constant 1 : index
// CHECK-NEXT:   [[C8_2:%.*]] = arith.constant 8 : index
// CHECK-NEXT:   [[L:%.*]], [[L_2:%.*]], [[L_3:%.*]] = gpu.launch @map_reduce_kernel_0 grid([[C1_2]], [[C8_2]]) stream([[STREAM]]) mems([[CP_3]], [[DEV]], [[S_3]]) args(%a_dev, %b_dev, %c_dev) : (!mem.ptr<!mem.array<2 x !mem.array<3 x f32>>, 1>, !mem.ptr<!mem.array<3 x !mem.array<4 x f32>>, 1>, !mem.ptr<!mem.array<2 x !mem.array<4 x f32>>, 1>)
// CHECK-NEXT:   [[BUF:%.*]], %c = buffer.alloc [[L]] : !buffer.buf<2x4xf32>
// CHECK-NEXT:   [[BK:%.*]], [[BK_2:%.*]] = gpu.buf_copy_to_host [[BUF]], [[L_2]], %c_dev -> %c : !mem.ptr<!mem.array<2 x !mem.array<4 x f32>>, 1> -> !buffer.buf<2x4xf32>
// CHECK-NEXT:   [[FR:%.*]] = gpu.free.block [[BK_2]], %a_dev : !mem.ptr<!mem.array<2 x !mem.array<3 x f32>>, 1>
// CHECK-NEXT:   [[FR_2:%.*]] = gpu.free.block [[FR]], %b_dev : !mem.ptr<!mem.array<3 x !mem.array<4 x f32>>, 1>
// CHECK-NEXT:   [[FR_3:%.*]] = gpu.free.block [[FR_2]], %c_dev : !mem.ptr<!mem.array<2 x !mem.array<4 x f32>>, 1>
// CHECK-NEXT:   %m1 = gpu.auto_deinit [[BK]], [[FR_3]], [[L_3]]
// CHECK-NEXT:   func.return %m1, %c : !mem.M<0>, !buffer.buf<2x4xf32>
// CHECK-NEXT: }

// -----

// A convolution with a bias, stored reversed. The post input becomes a kernel argument after the
// inputs, read at post_maps(output coordinates); init and the constants the epilogue uses from
// outside (a pure computation on constants) are copied into the kernel.

func.func @conv(%m: !mem.M<0>, %x: !buffer.buf<6xi32>, %w: !buffer.buf<3xi32>,
                %bias: !buffer.buf<2xi32>) -> (!mem.M<0>, !buffer.buf<4xi32>) {
  %zero = arith.constant 0 : i32
  %two = arith.constant 2 : i32
  %four = arith.muli %two, %two : i32
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
      %r = arith.muli %v, %four : i32
      btensor.yield %r : i32
  } : !buffer.buf<4xi32>
  func.return %m1, %y : !mem.M<0>, !buffer.buf<4xi32>
}

// CHECK:      func.func @map_reduce_kernel_0(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>, %group_id: index, %item_id: index, %in0: !mem.ptr<!mem.array<6 x i32>, 1>, %in1: !mem.ptr<!mem.array<3 x i32>, 1>, %post0: !mem.ptr<!mem.array<2 x i32>, 1>, %out: !mem.ptr<!mem.array<4 x i32>, 1>) -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
// CHECK-NEXT:   %zero = arith.constant 0 : i32
// CHECK-NEXT:   %two = arith.constant 2 : i32
// CHECK-NEXT:   %four = arith.muli %two, %two : i32
// CHECK-NEXT:   [[C4:%.*]] = arith.constant 4 : index
// CHECK-NEXT:   [[MULI:%.*]] = arith.muli %group_id, [[C4]] : index
// CHECK-NEXT:   %flat = arith.addi [[MULI]], %item_id : index
// CHECK-NEXT:   [[C3:%.*]] = arith.constant 3 : index
// CHECK-NEXT:   [[C0:%.*]] = arith.constant 0 : index
// CHECK-NEXT:   [[C1:%.*]] = arith.constant 1 : index
// CHECK-NEXT:   [[C2:%.*]] = arith.constant 2 : index
// CHECK-NEXT:   [[CM1:%.*]] = arith.constant -1 : index
// CHECK-NEXT:   [[FOR:%.*]], [[FOR_2:%.*]] = scf.for [[I:%.*]] = [[C0]] to [[C3]] step [[C1]] iter_args([[ARG:%.*]] = %m1, [[ARG_2:%.*]] = %zero) -> (!mem.M<1>, i32) {
// CHECK-NEXT:     [[ADDI:%.*]] = arith.addi %flat, [[I]] : index
// CHECK-NEXT:     [[P:%.*]] = mem.lea %in0, [[ADDI]] : !mem.ptr<!mem.array<6 x i32>, 1>
// CHECK-NEXT:     [[LD:%.*]], [[LD_2:%.*]] = mem.load [[ARG]], [[P]] : !mem.ptr<i32, 1>
// CHECK-NEXT:     [[P_2:%.*]] = mem.lea %in1, [[I]] : !mem.ptr<!mem.array<3 x i32>, 1>
// CHECK-NEXT:     [[LD_3:%.*]], [[LD_4:%.*]] = mem.load [[LD]], [[P_2]] : !mem.ptr<i32, 1>
// CHECK-NEXT:     %p = arith.muli [[LD_2]], [[LD_4]] : i32
// CHECK-NEXT:     %s = arith.addi [[ARG_2]], %p : i32
// CHECK-NEXT:     scf.yield [[LD_3]], %s : !mem.M<1>, i32
// CHECK-NEXT:   }
// CHECK-NEXT:   [[REMSI:%.*]] = arith.remsi %flat, [[C2]] : index
// CHECK-NEXT:   [[CMPI_2:%.*]] = arith.cmpi slt, [[REMSI]], [[C0]] : index
// CHECK-NEXT:   [[ADDI_2:%.*]] = arith.addi [[REMSI]], [[C2]] : index
// CHECK-NEXT:   [[SELECT:%.*]] = arith.select [[CMPI_2]], [[ADDI_2]], [[REMSI]] : index
// CHECK-NEXT:   [[P_3:%.*]] = mem.lea %post0, [[SELECT]] : !mem.ptr<!mem.array<2 x i32>, 1>
// CHECK-NEXT:   [[LD_5:%.*]], [[LD_6:%.*]] = mem.load [[FOR]], [[P_3]] : !mem.ptr<i32, 1>
// CHECK-NEXT:   %v = arith.addi [[FOR_2]], [[LD_6]] : i32
// CHECK-NEXT:   %r = arith.muli %v, %four : i32
// CHECK-NEXT:   [[MULI_2:%.*]] = arith.muli %flat, [[CM1]] : index
// CHECK-NEXT:   [[ADDI_3:%.*]] = arith.addi [[MULI_2]], [[C3]] : index
// CHECK-NEXT:   [[P_4:%.*]] = mem.lea %out, [[ADDI_3]] : !mem.ptr<!mem.array<4 x i32>, 1>
// CHECK-NEXT:   [[ST:%.*]] = mem.store [[LD_5]], [[P_4]], %r : !mem.ptr<i32, 1>
// CHECK-NEXT:   func.return [[ST]], %m3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
// CHECK-NEXT: }
// CHECK-NEXT: func.func @conv(%m: !mem.M<0>, %x: !buffer.buf<6xi32>, %w: !buffer.buf<3xi32>, %bias: !buffer.buf<2xi32>) -> (!mem.M<0>, !buffer.buf<4xi32>) {
// CHECK-NEXT:   %zero = arith.constant 0 : i32
// CHECK-NEXT:   %two = arith.constant 2 : i32
// CHECK-NEXT:   %four = arith.muli %two, %two : i32
// CHECK-NEXT:   [[S:%.*]], [[S_2:%.*]], [[S_3:%.*]] = gpu.auto_init %m
// CHECK-NEXT:   [[CP:%.*]], [[CP_2:%.*]], %x_dev = gpu.buf_alloc_copy [[S]], [[S_2]], %x : !buffer.buf<6xi32> -> !mem.ptr<!mem.array<6 x i32>, 1>
// CHECK-NEXT:   [[CP_3:%.*]], [[CP_4:%.*]], %w_dev = gpu.buf_alloc_copy [[CP]], [[CP_2]], %w : !buffer.buf<3xi32> -> !mem.ptr<!mem.array<3 x i32>, 1>
// CHECK-NEXT:   [[CP_5:%.*]], [[CP_6:%.*]], %bias_dev = gpu.buf_alloc_copy [[CP_3]], [[CP_4]], %bias : !buffer.buf<2xi32> -> !mem.ptr<!mem.array<2 x i32>, 1>
// CHECK-NEXT:   [[DEV:%.*]], %y_dev = gpu.alloc.block [[CP_6]] : !mem.ptr<!mem.array<4 x i32>, 1>
// CHECK-NEXT:   [[STREAM:%.*]] = gpu.default_stream
// CHECK-NEXT:   [[C1_2:%.*]] = arith.constant 1 : index
// CHECK-NEXT:   [[C4_2:%.*]] = arith.constant 4 : index
// CHECK-NEXT:   [[L:%.*]], [[L_2:%.*]], [[L_3:%.*]] = gpu.launch @map_reduce_kernel_0 grid([[C1_2]], [[C4_2]]) stream([[STREAM]]) mems([[CP_5]], [[DEV]], [[S_3]]) args(%x_dev, %w_dev, %bias_dev, %y_dev) : (!mem.ptr<!mem.array<6 x i32>, 1>, !mem.ptr<!mem.array<3 x i32>, 1>, !mem.ptr<!mem.array<2 x i32>, 1>, !mem.ptr<!mem.array<4 x i32>, 1>)
// CHECK-NEXT:   [[BUF:%.*]], %y = buffer.alloc [[L]] : !buffer.buf<4xi32>
// CHECK-NEXT:   [[BK:%.*]], [[BK_2:%.*]] = gpu.buf_copy_to_host [[BUF]], [[L_2]], %y_dev -> %y : !mem.ptr<!mem.array<4 x i32>, 1> -> !buffer.buf<4xi32>
// CHECK-NEXT:   [[FR:%.*]] = gpu.free.block [[BK_2]], %x_dev : !mem.ptr<!mem.array<6 x i32>, 1>
// CHECK-NEXT:   [[FR_2:%.*]] = gpu.free.block [[FR]], %w_dev : !mem.ptr<!mem.array<3 x i32>, 1>
// CHECK-NEXT:   [[FR_3:%.*]] = gpu.free.block [[FR_2]], %bias_dev : !mem.ptr<!mem.array<2 x i32>, 1>
// CHECK-NEXT:   [[FR_4:%.*]] = gpu.free.block [[FR_3]], %y_dev : !mem.ptr<!mem.array<4 x i32>, 1>
// CHECK-NEXT:   %m1 = gpu.auto_deinit [[BK]], [[FR_4]], [[L_3]]
// CHECK-NEXT:   func.return %m1, %y : !mem.M<0>, !buffer.buf<4xi32>
// CHECK-NEXT: }

// -----

// A full reduction: the output is one f64 on the device (no array), one work-item computes it.

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

// CHECK:      func.func @map_reduce_kernel_0(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>, %group_id: index, %item_id: index, %in0: !mem.ptr<!mem.array<8 x f64>, 1>, %out: !mem.ptr<f64, 1>) -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
// CHECK-NEXT:   %zero = arith.constant 0.000000e+00 : f64
// CHECK-NEXT:   [[C1:%.*]] = arith.constant 1 : index
// CHECK-NEXT:   [[MULI:%.*]] = arith.muli %group_id, [[C1]] : index
// CHECK-NEXT:   %flat = arith.addi [[MULI]], %item_id : index
// CHECK-NEXT:   [[C8:%.*]] = arith.constant 8 : index
// CHECK-NEXT:   [[C0:%.*]] = arith.constant 0 : index
// CHECK-NEXT:   [[FOR:%.*]], [[FOR_2:%.*]] = scf.for [[I:%.*]] = [[C0]] to [[C8]] step [[C1]] iter_args([[ARG:%.*]] = %m1, [[ARG_2:%.*]] = %zero) -> (!mem.M<1>, f64) {
// CHECK-NEXT:     [[P:%.*]] = mem.lea %in0, [[I]] : !mem.ptr<!mem.array<8 x f64>, 1>
// CHECK-NEXT:     [[LD:%.*]], [[LD_2:%.*]] = mem.load [[ARG]], [[P]] : !mem.ptr<f64, 1>
// CHECK-NEXT:     %r = arith.addf [[ARG_2]], [[LD_2]] : f64
// CHECK-NEXT:     scf.yield [[LD]], %r : !mem.M<1>, f64
// CHECK-NEXT:   }
// CHECK-NEXT:   [[ST:%.*]] = mem.store [[FOR]], %out, [[FOR_2]] : !mem.ptr<f64, 1>
// CHECK-NEXT:   func.return [[ST]], %m3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
// CHECK-NEXT: }
// CHECK-NEXT: func.func @sum(%m: !mem.M<0>, %x: !buffer.buf<8xf64>) -> (!mem.M<0>, !buffer.buf<f64>) {
// CHECK-NEXT:   %zero = arith.constant 0.000000e+00 : f64
// CHECK-NEXT:   [[S:%.*]], [[S_2:%.*]], [[S_3:%.*]] = gpu.auto_init %m
// CHECK-NEXT:   [[CP:%.*]], [[CP_2:%.*]], %x_dev = gpu.buf_alloc_copy [[S]], [[S_2]], %x : !buffer.buf<8xf64> -> !mem.ptr<!mem.array<8 x f64>, 1>
// CHECK-NEXT:   [[DEV:%.*]], %s_dev = gpu.alloc.block [[CP_2]] : !mem.ptr<f64, 1>
// CHECK-NEXT:   [[STREAM:%.*]] = gpu.default_stream
// CHECK-NEXT:   [[C1_2:%.*]] = arith.constant 1 : index
// CHECK-NEXT:   [[L:%.*]], [[L_2:%.*]], [[L_3:%.*]] = gpu.launch @map_reduce_kernel_0 grid([[C1_2]], [[C1_2]]) stream([[STREAM]]) mems([[CP]], [[DEV]], [[S_3]]) args(%x_dev, %s_dev) : (!mem.ptr<!mem.array<8 x f64>, 1>, !mem.ptr<f64, 1>)
// CHECK-NEXT:   [[BUF:%.*]], %s = buffer.alloc [[L]] : !buffer.buf<f64>
// CHECK-NEXT:   [[BK:%.*]], [[BK_2:%.*]] = gpu.buf_copy_to_host [[BUF]], [[L_2]], %s_dev -> %s : !mem.ptr<f64, 1> -> !buffer.buf<f64>
// CHECK-NEXT:   [[FR:%.*]] = gpu.free.block [[BK_2]], %x_dev : !mem.ptr<!mem.array<8 x f64>, 1>
// CHECK-NEXT:   [[FR_2:%.*]] = gpu.free.block [[FR]], %s_dev : !mem.ptr<f64, 1>
// CHECK-NEXT:   %m1 = gpu.auto_deinit [[BK]], [[FR_2]], [[L_3]]
// CHECK-NEXT:   func.return %m1, %s : !mem.M<0>, !buffer.buf<f64>
// CHECK-NEXT: }

// -----

// 3 x 40 x 10 = 1200 output cells: groups of 1024 items, ceil(1200 / 1024) = 2 groups, so only
// the work-items with flat < 1200 have a cell; a cell's coordinates are (flat / 400,
// flat / 10 % 40, flat % 10). No reduction extents: the combiner runs once per cell.

func.func @scale(%m: !mem.M<0>, %x: !buffer.buf<3x40x10xf32>) -> (!mem.M<0>, !buffer.buf<3x40x10xf32>) {
  %half = arith.constant 0.5 : f32
  %m1, %y = btensor.map_reduce %m ins(%x : !buffer.buf<3x40x10xf32>) init(%half : f32)
      {out_rank = 3 : i64, shape = array<i64: 3, 40, 10>,
      maps = [affine_map<(i, j, k) -> (i, j, k)>],
      out_map = affine_map<(i, j, k) -> (i, j, k)>} combiner {
    ^bb0(%acc: f32, %v: f32):
      %r = arith.mulf %acc, %v : f32
      btensor.yield %r : f32
  } : !buffer.buf<3x40x10xf32>
  func.return %m1, %y : !mem.M<0>, !buffer.buf<3x40x10xf32>
}

// CHECK:      func.func @map_reduce_kernel_0(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>, %group_id: index, %item_id: index, %in0: !mem.ptr<!mem.array<3 x !mem.array<40 x !mem.array<10 x f32>>>, 1>, %out: !mem.ptr<!mem.array<3 x !mem.array<40 x !mem.array<10 x f32>>>, 1>) -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
// CHECK-NEXT:   %half = arith.constant 5.000000e-01 : f32
// CHECK-NEXT:   [[C1024:%.*]] = arith.constant 1024 : index
// CHECK-NEXT:   [[MULI:%.*]] = arith.muli %group_id, [[C1024]] : index
// CHECK-NEXT:   %flat = arith.addi [[MULI]], %item_id : index
// CHECK-NEXT:   [[C1200:%.*]] = arith.constant 1200 : index
// CHECK-NEXT:   [[CMPI:%.*]] = arith.cmpi ult, %flat, [[C1200]] : index
// CHECK-NEXT:   [[C400:%.*]] = arith.constant 400 : index
// CHECK-NEXT:   [[C10:%.*]] = arith.constant 10 : index
// CHECK-NEXT:   [[C40:%.*]] = arith.constant 40 : index
// CHECK-NEXT:   [[IF:%.*]] = scf.if [[CMPI]] -> (!mem.M<1>) {
// CHECK-NEXT:     [[DIVUI:%.*]] = arith.divui %flat, [[C400]] : index
// CHECK-NEXT:     [[DIVUI_2:%.*]] = arith.divui %flat, [[C10]] : index
// CHECK-NEXT:     [[REMUI:%.*]] = arith.remui [[DIVUI_2]], [[C40]] : index
// CHECK-NEXT:     [[REMUI_2:%.*]] = arith.remui %flat, [[C10]] : index
// CHECK-NEXT:     [[P:%.*]] = mem.lea %in0, [[DIVUI]] : !mem.ptr<!mem.array<3 x !mem.array<40 x !mem.array<10 x f32>>>, 1>
// CHECK-NEXT:     [[P_2:%.*]] = mem.lea [[P]], [[REMUI]] : !mem.ptr<!mem.array<40 x !mem.array<10 x f32>>, 1>
// CHECK-NEXT:     [[P_3:%.*]] = mem.lea [[P_2]], [[REMUI_2]] : !mem.ptr<!mem.array<10 x f32>, 1>
// CHECK-NEXT:     [[LD:%.*]], [[LD_2:%.*]] = mem.load %m1, [[P_3]] : !mem.ptr<f32, 1>
// CHECK-NEXT:     %r = arith.mulf %half, [[LD_2]] : f32
// CHECK-NEXT:     [[P_4:%.*]] = mem.lea %out, [[DIVUI]] : !mem.ptr<!mem.array<3 x !mem.array<40 x !mem.array<10 x f32>>>, 1>
// CHECK-NEXT:     [[P_5:%.*]] = mem.lea [[P_4]], [[REMUI]] : !mem.ptr<!mem.array<40 x !mem.array<10 x f32>>, 1>
// CHECK-NEXT:     [[P_6:%.*]] = mem.lea [[P_5]], [[REMUI_2]] : !mem.ptr<!mem.array<10 x f32>, 1>
// CHECK-NEXT:     [[ST:%.*]] = mem.store [[LD]], [[P_6]], %r : !mem.ptr<f32, 1>
// CHECK-NEXT:     scf.yield [[ST]] : !mem.M<1>
// CHECK-NEXT:   } else {
// CHECK-NEXT:     scf.yield %m1 : !mem.M<1>
// CHECK-NEXT:   }
// CHECK-NEXT:   func.return [[IF]], %m3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
// CHECK-NEXT: }
// CHECK-NEXT: func.func @scale(%m: !mem.M<0>, %x: !buffer.buf<3x40x10xf32>) -> (!mem.M<0>, !buffer.buf<3x40x10xf32>) {
// CHECK-NEXT:   %half = arith.constant 5.000000e-01 : f32
// CHECK-NEXT:   [[S:%.*]], [[S_2:%.*]], [[S_3:%.*]] = gpu.auto_init %m
// CHECK-NEXT:   [[CP:%.*]], [[CP_2:%.*]], %x_dev = gpu.buf_alloc_copy [[S]], [[S_2]], %x : !buffer.buf<3x40x10xf32> -> !mem.ptr<!mem.array<3 x !mem.array<40 x !mem.array<10 x f32>>>, 1>
// CHECK-NEXT:   [[DEV:%.*]], %y_dev = gpu.alloc.block [[CP_2]] : !mem.ptr<!mem.array<3 x !mem.array<40 x !mem.array<10 x f32>>>, 1>
// CHECK-NEXT:   [[STREAM:%.*]] = gpu.default_stream
// CHECK-NEXT:   [[C2:%.*]] = arith.constant 2 : index
// CHECK-NEXT:   [[C1024_2:%.*]] = arith.constant 1024 : index
// CHECK-NEXT:   [[L:%.*]], [[L_2:%.*]], [[L_3:%.*]] = gpu.launch @map_reduce_kernel_0 grid([[C2]], [[C1024_2]]) stream([[STREAM]]) mems([[CP]], [[DEV]], [[S_3]]) args(%x_dev, %y_dev) : (!mem.ptr<!mem.array<3 x !mem.array<40 x !mem.array<10 x f32>>>, 1>, !mem.ptr<!mem.array<3 x !mem.array<40 x !mem.array<10 x f32>>>, 1>)
// CHECK-NEXT:   [[BUF:%.*]], %y = buffer.alloc [[L]] : !buffer.buf<3x40x10xf32>
// CHECK-NEXT:   [[BK:%.*]], [[BK_2:%.*]] = gpu.buf_copy_to_host [[BUF]], [[L_2]], %y_dev -> %y : !mem.ptr<!mem.array<3 x !mem.array<40 x !mem.array<10 x f32>>>, 1> -> !buffer.buf<3x40x10xf32>
// CHECK-NEXT:   [[FR:%.*]] = gpu.free.block [[BK_2]], %x_dev : !mem.ptr<!mem.array<3 x !mem.array<40 x !mem.array<10 x f32>>>, 1>
// CHECK-NEXT:   [[FR_2:%.*]] = gpu.free.block [[FR]], %y_dev : !mem.ptr<!mem.array<3 x !mem.array<40 x !mem.array<10 x f32>>>, 1>
// CHECK-NEXT:   %m1 = gpu.auto_deinit [[BK]], [[FR_2]], [[L_3]]
// CHECK-NEXT:   func.return %m1, %y : !mem.M<0>, !buffer.buf<3x40x10xf32>
// CHECK-NEXT: }

// -----

// Every op gets a kernel of its own, named after the first free @map_reduce_kernel_<n>, and,
// when it does not read another op's output, a session of its own (merge-init-deinit merges
// them; lower-btensor-map-reduce-chaining.mlir has the ops that read another's output).

func.func @map_reduce_kernel_0() {
  func.return
}

func.func @twice(%m: !mem.M<0>, %x: !buffer.buf<4xi32>) -> (!mem.M<0>, !buffer.buf<4xi32>) {
  %one = arith.constant 1 : i32
  %m1, %y = btensor.map_reduce %m ins(%x : !buffer.buf<4xi32>) init(%one : i32)
      {out_rank = 1 : i64, shape = array<i64: 4>, maps = [affine_map<(i) -> (i)>],
      out_map = affine_map<(i) -> (i)>} combiner {
    ^bb0(%acc: i32, %v: i32):
      %r = arith.addi %acc, %v : i32
      btensor.yield %r : i32
  } : !buffer.buf<4xi32>
  %m2, %z = btensor.map_reduce %m1 ins(%x : !buffer.buf<4xi32>) init(%one : i32)
      {out_rank = 1 : i64, shape = array<i64: 4>, maps = [affine_map<(i) -> (i)>],
      out_map = affine_map<(i) -> (i)>} combiner {
    ^bb0(%acc: i32, %v: i32):
      %r = arith.addi %acc, %v : i32
      btensor.yield %r : i32
  } : !buffer.buf<4xi32>
  func.return %m2, %z : !mem.M<0>, !buffer.buf<4xi32>
}

// CHECK:      func.func @map_reduce_kernel_0() {
// CHECK-NEXT:   func.return
// CHECK-NEXT: }
// CHECK-NEXT: func.func @map_reduce_kernel_1(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>, %group_id: index, %item_id: index, %in0: !mem.ptr<!mem.array<4 x i32>, 1>, %out: !mem.ptr<!mem.array<4 x i32>, 1>) -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
// CHECK-NEXT:   %one = arith.constant 1 : i32
// CHECK-NEXT:   [[C4:%.*]] = arith.constant 4 : index
// CHECK-NEXT:   [[MULI:%.*]] = arith.muli %group_id, [[C4]] : index
// CHECK-NEXT:   %flat = arith.addi [[MULI]], %item_id : index
// CHECK-NEXT:   [[P:%.*]] = mem.lea %in0, %flat : !mem.ptr<!mem.array<4 x i32>, 1>
// CHECK-NEXT:   [[LD:%.*]], [[LD_2:%.*]] = mem.load %m1, [[P]] : !mem.ptr<i32, 1>
// CHECK-NEXT:   %r = arith.addi %one, [[LD_2]] : i32
// CHECK-NEXT:   [[P_2:%.*]] = mem.lea %out, %flat : !mem.ptr<!mem.array<4 x i32>, 1>
// CHECK-NEXT:   [[ST:%.*]] = mem.store [[LD]], [[P_2]], %r : !mem.ptr<i32, 1>
// CHECK-NEXT:   func.return [[ST]], %m3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
// CHECK-NEXT: }
// CHECK-NEXT: func.func @map_reduce_kernel_2(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>, %group_id: index, %item_id: index, %in0: !mem.ptr<!mem.array<4 x i32>, 1>, %out: !mem.ptr<!mem.array<4 x i32>, 1>) -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
// CHECK-NEXT:   %one = arith.constant 1 : i32
// CHECK-NEXT:   [[C4_2:%.*]] = arith.constant 4 : index
// CHECK-NEXT:   [[MULI_2:%.*]] = arith.muli %group_id, [[C4_2]] : index
// CHECK-NEXT:   %flat = arith.addi [[MULI_2]], %item_id : index
// CHECK-NEXT:   [[P_3:%.*]] = mem.lea %in0, %flat : !mem.ptr<!mem.array<4 x i32>, 1>
// CHECK-NEXT:   [[LD_3:%.*]], [[LD_4:%.*]] = mem.load %m1, [[P_3]] : !mem.ptr<i32, 1>
// CHECK-NEXT:   %r = arith.addi %one, [[LD_4]] : i32
// CHECK-NEXT:   [[P_4:%.*]] = mem.lea %out, %flat : !mem.ptr<!mem.array<4 x i32>, 1>
// CHECK-NEXT:   [[ST_2:%.*]] = mem.store [[LD_3]], [[P_4]], %r : !mem.ptr<i32, 1>
// CHECK-NEXT:   func.return [[ST_2]], %m3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
// CHECK-NEXT: }
// CHECK-NEXT: func.func @twice(%m: !mem.M<0>, %x: !buffer.buf<4xi32>) -> (!mem.M<0>, !buffer.buf<4xi32>) {
// CHECK-NEXT:   %one = arith.constant 1 : i32
// CHECK-NEXT:   [[S:%.*]], [[S_2:%.*]], [[S_3:%.*]] = gpu.auto_init %m
// CHECK-NEXT:   [[CP:%.*]], [[CP_2:%.*]], %x_dev = gpu.buf_alloc_copy [[S]], [[S_2]], %x : !buffer.buf<4xi32> -> !mem.ptr<!mem.array<4 x i32>, 1>
// CHECK-NEXT:   [[DEV:%.*]], %y_dev = gpu.alloc.block [[CP_2]] : !mem.ptr<!mem.array<4 x i32>, 1>
// CHECK-NEXT:   [[STREAM:%.*]] = gpu.default_stream
// CHECK-NEXT:   [[C1:%.*]] = arith.constant 1 : index
// CHECK-NEXT:   [[C4_3:%.*]] = arith.constant 4 : index
// CHECK-NEXT:   [[L:%.*]], [[L_2:%.*]], [[L_3:%.*]] = gpu.launch @map_reduce_kernel_1 grid([[C1]], [[C4_3]]) stream([[STREAM]]) mems([[CP]], [[DEV]], [[S_3]]) args(%x_dev, %y_dev) : (!mem.ptr<!mem.array<4 x i32>, 1>, !mem.ptr<!mem.array<4 x i32>, 1>)
// CHECK-NEXT:   [[BUF:%.*]], %y = buffer.alloc [[L]] : !buffer.buf<4xi32>
// CHECK-NEXT:   [[BK:%.*]], [[BK_2:%.*]] = gpu.buf_copy_to_host [[BUF]], [[L_2]], %y_dev -> %y : !mem.ptr<!mem.array<4 x i32>, 1> -> !buffer.buf<4xi32>
// CHECK-NEXT:   [[FR:%.*]] = gpu.free.block [[BK_2]], %x_dev : !mem.ptr<!mem.array<4 x i32>, 1>
// CHECK-NEXT:   [[FR_2:%.*]] = gpu.free.block [[FR]], %y_dev : !mem.ptr<!mem.array<4 x i32>, 1>
// CHECK-NEXT:   %m1 = gpu.auto_deinit [[BK]], [[FR_2]], [[L_3]]
// CHECK-NEXT:   [[S_4:%.*]], [[S_5:%.*]], [[S_6:%.*]] = gpu.auto_init %m1
// CHECK-NEXT:   [[CP_3:%.*]], [[CP_4:%.*]], %x_dev_1 = gpu.buf_alloc_copy [[S_4]], [[S_5]], %x : !buffer.buf<4xi32> -> !mem.ptr<!mem.array<4 x i32>, 1>
// CHECK-NEXT:   [[DEV_2:%.*]], %z_dev = gpu.alloc.block [[CP_4]] : !mem.ptr<!mem.array<4 x i32>, 1>
// CHECK-NEXT:   [[STREAM_2:%.*]] = gpu.default_stream
// CHECK-NEXT:   [[C1_2:%.*]] = arith.constant 1 : index
// CHECK-NEXT:   [[C4_4:%.*]] = arith.constant 4 : index
// CHECK-NEXT:   [[L_4:%.*]], [[L_5:%.*]], [[L_6:%.*]] = gpu.launch @map_reduce_kernel_2 grid([[C1_2]], [[C4_4]]) stream([[STREAM_2]]) mems([[CP_3]], [[DEV_2]], [[S_6]]) args(%x_dev_1, %z_dev) : (!mem.ptr<!mem.array<4 x i32>, 1>, !mem.ptr<!mem.array<4 x i32>, 1>)
// CHECK-NEXT:   [[BUF_2:%.*]], %z = buffer.alloc [[L_4]] : !buffer.buf<4xi32>
// CHECK-NEXT:   [[BK_3:%.*]], [[BK_4:%.*]] = gpu.buf_copy_to_host [[BUF_2]], [[L_5]], %z_dev -> %z : !mem.ptr<!mem.array<4 x i32>, 1> -> !buffer.buf<4xi32>
// CHECK-NEXT:   [[FR_3:%.*]] = gpu.free.block [[BK_4]], %x_dev_1 : !mem.ptr<!mem.array<4 x i32>, 1>
// CHECK-NEXT:   [[FR_4:%.*]] = gpu.free.block [[FR_3]], %z_dev : !mem.ptr<!mem.array<4 x i32>, 1>
// CHECK-NEXT:   %m2 = gpu.auto_deinit [[BK_3]], [[FR_4]], [[L_6]]
// CHECK-NEXT:   func.return %m2, %z : !mem.M<0>, !buffer.buf<4xi32>
// CHECK-NEXT: }

// -----

// A program without map-reduce ops is left as it is, even with an explicit gpu.init (no warning).

func.func @untouched(%m: !mem.M<0>) -> !mem.M<0> {
  %m0, %m1, %m4 = gpu.init %m
  %done = gpu.deinit %m0, %m1, %m4
  func.return %done : !mem.M<0>
}

// CHECK:      func.func @untouched(%m: !mem.M<0>) -> !mem.M<0> {
// CHECK-NEXT:   %m0, %m1, %m4 = gpu.init %m
// CHECK-NEXT:   %done = gpu.deinit %m0, %m1, %m4
// CHECK-NEXT:   func.return %done : !mem.M<0>
// CHECK-NEXT: }

// The examples (the RUN lines at the top): examples/matmul.mlir ...

// MATMUL:      func.func @map_reduce_kernel_0(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>, %group_id: index, %item_id: index, %in0: !mem.ptr<!mem.array<4 x !mem.array<8 x f32>>, 1>, %in1: !mem.ptr<!mem.array<8 x !mem.array<4 x f32>>, 1>, %out: !mem.ptr<!mem.array<4 x !mem.array<4 x f32>>, 1>) -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
// MATMUL-NEXT:   %zero = arith.constant 0.000000e+00 : f32
// MATMUL-NEXT:   [[C16:%.*]] = arith.constant 16 : index
// MATMUL-NEXT:   [[MULI:%.*]] = arith.muli %group_id, [[C16]] : index
// MATMUL-NEXT:   %flat = arith.addi [[MULI]], %item_id : index
// MATMUL-NEXT:   [[C4:%.*]] = arith.constant 4 : index
// MATMUL-NEXT:   [[C8:%.*]] = arith.constant 8 : index
// MATMUL-NEXT:   [[C0:%.*]] = arith.constant 0 : index
// MATMUL-NEXT:   [[C1:%.*]] = arith.constant 1 : index
// MATMUL-NEXT:   [[DIVUI:%.*]] = arith.divui %flat, [[C4]] : index
// MATMUL-NEXT:   [[REMUI:%.*]] = arith.remui %flat, [[C4]] : index
// MATMUL-NEXT:   [[FOR:%.*]], [[FOR_2:%.*]] = scf.for [[I:%.*]] = [[C0]] to [[C8]] step [[C1]] iter_args([[ARG:%.*]] = %m1, [[ARG_2:%.*]] = %zero) -> (!mem.M<1>, f32) {
// MATMUL-NEXT:     [[P:%.*]] = mem.lea %in0, [[DIVUI]] : !mem.ptr<!mem.array<4 x !mem.array<8 x f32>>, 1>
// MATMUL-NEXT:     [[P_2:%.*]] = mem.lea [[P]], [[I]] : !mem.ptr<!mem.array<8 x f32>, 1>
// MATMUL-NEXT:     [[LD:%.*]], [[LD_2:%.*]] = mem.load [[ARG]], [[P_2]] : !mem.ptr<f32, 1>
// MATMUL-NEXT:     [[P_3:%.*]] = mem.lea %in1, [[I]] : !mem.ptr<!mem.array<8 x !mem.array<4 x f32>>, 1>
// MATMUL-NEXT:     [[P_4:%.*]] = mem.lea [[P_3]], [[REMUI]] : !mem.ptr<!mem.array<4 x f32>, 1>
// MATMUL-NEXT:     [[LD_3:%.*]], [[LD_4:%.*]] = mem.load [[LD]], [[P_4]] : !mem.ptr<f32, 1>
// MATMUL-NEXT:     %p = arith.mulf [[LD_2]], [[LD_4]] : f32
// MATMUL-NEXT:     %s = arith.addf [[ARG_2]], %p : f32
// MATMUL-NEXT:     scf.yield [[LD_3]], %s : !mem.M<1>, f32
// MATMUL-NEXT:   }
// MATMUL-NEXT:   [[P_5:%.*]] = mem.lea %out, [[DIVUI]] : !mem.ptr<!mem.array<4 x !mem.array<4 x f32>>, 1>
// MATMUL-NEXT:   [[P_6:%.*]] = mem.lea [[P_5]], [[REMUI]] : !mem.ptr<!mem.array<4 x f32>, 1>
// MATMUL-NEXT:   [[ST:%.*]] = mem.store [[FOR]], [[P_6]], [[FOR_2]] : !mem.ptr<f32, 1>
// MATMUL-NEXT:   func.return [[ST]], %m3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
// MATMUL-NEXT: }
// MATMUL-NEXT: func.func @main(%m: !mem.M<0>) -> !mem.M<0> {
// MATMUL-NEXT:   %m1, %a = buffer.init %m dense<{{\[\[}}1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00, 5.000000e+00, 6.000000e+00, 7.000000e+00, 8.000000e+00], [9.000000e+00, 1.000000e+01, 1.100000e+01, 1.200000e+01, 1.300000e+01, 1.400000e+01, 1.500000e+01, 1.600000e+01], [1.700000e+01, 1.800000e+01, 1.900000e+01, 2.000000e+01, 2.100000e+01, 2.200000e+01, 2.300000e+01, 2.400000e+01], [2.500000e+01, 2.600000e+01, 2.700000e+01, 2.800000e+01, 2.900000e+01, 3.000000e+01, 3.100000e+01, 3.200000e+01{{\]\]}}> : tensor<4x8xf32>
// MATMUL-NEXT:   %m2, %b = buffer.init %m1 dense<{{\[\[}}-5.000000e-01, 0.000000e+00, 5.000000e-01, -2.500000e-01], [-2.500000e-01, 2.500000e-01, -5.000000e-01, 0.000000e+00], [0.000000e+00, 5.000000e-01, -2.500000e-01, 2.500000e-01], [2.500000e-01, -5.000000e-01, 0.000000e+00, 5.000000e-01], [5.000000e-01, -2.500000e-01, 2.500000e-01, -5.000000e-01], [-5.000000e-01, 0.000000e+00, 5.000000e-01, -2.500000e-01], [-2.500000e-01, 2.500000e-01, -5.000000e-01, 0.000000e+00], [0.000000e+00, 5.000000e-01, -2.500000e-01, 2.500000e-01{{\]\]}}> : tensor<8x4xf32>
// MATMUL-NEXT:   %zero = arith.constant 0.000000e+00 : f32
// MATMUL-NEXT:   [[S:%.*]], [[S_2:%.*]], [[S_3:%.*]] = gpu.auto_init %m2
// MATMUL-NEXT:   [[CP:%.*]], [[CP_2:%.*]], %a_dev = gpu.buf_alloc_copy [[S]], [[S_2]], %a : !buffer.buf<4x8xf32> -> !mem.ptr<!mem.array<4 x !mem.array<8 x f32>>, 1>
// MATMUL-NEXT:   [[CP_3:%.*]], [[CP_4:%.*]], %b_dev = gpu.buf_alloc_copy [[CP]], [[CP_2]], %b : !buffer.buf<8x4xf32> -> !mem.ptr<!mem.array<8 x !mem.array<4 x f32>>, 1>
// MATMUL-NEXT:   [[DEV:%.*]], %c_dev = gpu.alloc.block [[CP_4]] : !mem.ptr<!mem.array<4 x !mem.array<4 x f32>>, 1>
// MATMUL-NEXT:   [[STREAM:%.*]] = gpu.default_stream
// MATMUL-NEXT:   [[C1_2:%.*]] = arith.constant 1 : index
// MATMUL-NEXT:   [[C16_2:%.*]] = arith.constant 16 : index
// MATMUL-NEXT:   [[L:%.*]], [[L_2:%.*]], [[L_3:%.*]] = gpu.launch @map_reduce_kernel_0 grid([[C1_2]], [[C16_2]]) stream([[STREAM]]) mems([[CP_3]], [[DEV]], [[S_3]]) args(%a_dev, %b_dev, %c_dev) : (!mem.ptr<!mem.array<4 x !mem.array<8 x f32>>, 1>, !mem.ptr<!mem.array<8 x !mem.array<4 x f32>>, 1>, !mem.ptr<!mem.array<4 x !mem.array<4 x f32>>, 1>)
// MATMUL-NEXT:   [[BUF:%.*]], %c = buffer.alloc [[L]] : !buffer.buf<4x4xf32>
// MATMUL-NEXT:   [[BK:%.*]], [[BK_2:%.*]] = gpu.buf_copy_to_host [[BUF]], [[L_2]], %c_dev -> %c : !mem.ptr<!mem.array<4 x !mem.array<4 x f32>>, 1> -> !buffer.buf<4x4xf32>
// MATMUL-NEXT:   [[FR:%.*]] = gpu.free.block [[BK_2]], %a_dev : !mem.ptr<!mem.array<4 x !mem.array<8 x f32>>, 1>
// MATMUL-NEXT:   [[FR_2:%.*]] = gpu.free.block [[FR]], %b_dev : !mem.ptr<!mem.array<8 x !mem.array<4 x f32>>, 1>
// MATMUL-NEXT:   [[FR_3:%.*]] = gpu.free.block [[FR_2]], %c_dev : !mem.ptr<!mem.array<4 x !mem.array<4 x f32>>, 1>
// MATMUL-NEXT:   %m3 = gpu.auto_deinit [[BK]], [[FR_3]], [[L_3]]
// MATMUL-NEXT:   %m4 = buffer.print %m3, %c : !buffer.buf<4x4xf32>
// MATMUL-NEXT:   func.return %m4 : !mem.M<0>
// MATMUL-NEXT: }

// ... and examples/bias_relu.mlir, whose bias is a post input (the kernel's %post0).

// BIAS-RELU:      func.func @map_reduce_kernel_0(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>, %group_id: index, %item_id: index, %in0: !mem.ptr<!mem.array<2 x !mem.array<3 x i32>>, 1>, %in1: !mem.ptr<!mem.array<3 x !mem.array<4 x i32>>, 1>, %post0: !mem.ptr<!mem.array<4 x i32>, 1>, %out: !mem.ptr<!mem.array<2 x !mem.array<4 x i32>>, 1>) -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
// BIAS-RELU-NEXT:   %zero = arith.constant 0 : i32
// BIAS-RELU-NEXT:   [[C8:%.*]] = arith.constant 8 : index
// BIAS-RELU-NEXT:   [[MULI:%.*]] = arith.muli %group_id, [[C8]] : index
// BIAS-RELU-NEXT:   %flat = arith.addi [[MULI]], %item_id : index
// BIAS-RELU-NEXT:   [[C4:%.*]] = arith.constant 4 : index
// BIAS-RELU-NEXT:   [[C3:%.*]] = arith.constant 3 : index
// BIAS-RELU-NEXT:   [[C0:%.*]] = arith.constant 0 : index
// BIAS-RELU-NEXT:   [[C1:%.*]] = arith.constant 1 : index
// BIAS-RELU-NEXT:   [[DIVUI:%.*]] = arith.divui %flat, [[C4]] : index
// BIAS-RELU-NEXT:   [[REMUI:%.*]] = arith.remui %flat, [[C4]] : index
// BIAS-RELU-NEXT:   [[FOR:%.*]], [[FOR_2:%.*]] = scf.for [[I:%.*]] = [[C0]] to [[C3]] step [[C1]] iter_args([[ARG:%.*]] = %m1, [[ARG_2:%.*]] = %zero) -> (!mem.M<1>, i32) {
// BIAS-RELU-NEXT:     [[P:%.*]] = mem.lea %in0, [[DIVUI]] : !mem.ptr<!mem.array<2 x !mem.array<3 x i32>>, 1>
// BIAS-RELU-NEXT:     [[P_2:%.*]] = mem.lea [[P]], [[I]] : !mem.ptr<!mem.array<3 x i32>, 1>
// BIAS-RELU-NEXT:     [[LD:%.*]], [[LD_2:%.*]] = mem.load [[ARG]], [[P_2]] : !mem.ptr<i32, 1>
// BIAS-RELU-NEXT:     [[P_3:%.*]] = mem.lea %in1, [[I]] : !mem.ptr<!mem.array<3 x !mem.array<4 x i32>>, 1>
// BIAS-RELU-NEXT:     [[P_4:%.*]] = mem.lea [[P_3]], [[REMUI]] : !mem.ptr<!mem.array<4 x i32>, 1>
// BIAS-RELU-NEXT:     [[LD_3:%.*]], [[LD_4:%.*]] = mem.load [[LD]], [[P_4]] : !mem.ptr<i32, 1>
// BIAS-RELU-NEXT:     %p = arith.muli [[LD_2]], [[LD_4]] : i32
// BIAS-RELU-NEXT:     %s = arith.addi [[ARG_2]], %p : i32
// BIAS-RELU-NEXT:     scf.yield [[LD_3]], %s : !mem.M<1>, i32
// BIAS-RELU-NEXT:   }
// BIAS-RELU-NEXT:   [[P_5:%.*]] = mem.lea %post0, [[REMUI]] : !mem.ptr<!mem.array<4 x i32>, 1>
// BIAS-RELU-NEXT:   [[LD_5:%.*]], [[LD_6:%.*]] = mem.load [[FOR]], [[P_5]] : !mem.ptr<i32, 1>
// BIAS-RELU-NEXT:   %z = arith.constant 0 : i32
// BIAS-RELU-NEXT:   %v = arith.addi [[FOR_2]], [[LD_6]] : i32
// BIAS-RELU-NEXT:   %r = arith.maxsi %v, %z : i32
// BIAS-RELU-NEXT:   [[P_6:%.*]] = mem.lea %out, [[DIVUI]] : !mem.ptr<!mem.array<2 x !mem.array<4 x i32>>, 1>
// BIAS-RELU-NEXT:   [[P_7:%.*]] = mem.lea [[P_6]], [[REMUI]] : !mem.ptr<!mem.array<4 x i32>, 1>
// BIAS-RELU-NEXT:   [[ST:%.*]] = mem.store [[LD_5]], [[P_7]], %r : !mem.ptr<i32, 1>
// BIAS-RELU-NEXT:   func.return [[ST]], %m3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
// BIAS-RELU-NEXT: }
// BIAS-RELU-NEXT: func.func @main(%m: !mem.M<0>) -> !mem.M<0> {
// BIAS-RELU-NEXT:   %m1, %x = buffer.init %m dense<{{\[\[}}1, -2, 3], [-4, 5, -6{{\]\]}}> : tensor<2x3xi32>
// BIAS-RELU-NEXT:   %m2, %w = buffer.init %m1 dense<{{\[\[}}1, 0, -1, 2], [0, 1, 1, -1], [2, -1, 0, 1{{\]\]}}> : tensor<3x4xi32>
// BIAS-RELU-NEXT:   %m3, %bias = buffer.init %m2 dense<[-3, 2, 0, 1]> : tensor<4xi32>
// BIAS-RELU-NEXT:   %zero = arith.constant 0 : i32
// BIAS-RELU-NEXT:   [[S:%.*]], [[S_2:%.*]], [[S_3:%.*]] = gpu.auto_init %m3
// BIAS-RELU-NEXT:   [[CP:%.*]], [[CP_2:%.*]], %x_dev = gpu.buf_alloc_copy [[S]], [[S_2]], %x : !buffer.buf<2x3xi32> -> !mem.ptr<!mem.array<2 x !mem.array<3 x i32>>, 1>
// BIAS-RELU-NEXT:   [[CP_3:%.*]], [[CP_4:%.*]], %w_dev = gpu.buf_alloc_copy [[CP]], [[CP_2]], %w : !buffer.buf<3x4xi32> -> !mem.ptr<!mem.array<3 x !mem.array<4 x i32>>, 1>
// BIAS-RELU-NEXT:   [[CP_5:%.*]], [[CP_6:%.*]], %bias_dev = gpu.buf_alloc_copy [[CP_3]], [[CP_4]], %bias : !buffer.buf<4xi32> -> !mem.ptr<!mem.array<4 x i32>, 1>
// BIAS-RELU-NEXT:   [[DEV:%.*]], %y_dev = gpu.alloc.block [[CP_6]] : !mem.ptr<!mem.array<2 x !mem.array<4 x i32>>, 1>
// BIAS-RELU-NEXT:   [[STREAM:%.*]] = gpu.default_stream
// BIAS-RELU-NEXT:   [[C1_2:%.*]] = arith.constant 1 : index
// BIAS-RELU-NEXT:   [[C8_2:%.*]] = arith.constant 8 : index
// BIAS-RELU-NEXT:   [[L:%.*]], [[L_2:%.*]], [[L_3:%.*]] = gpu.launch @map_reduce_kernel_0 grid([[C1_2]], [[C8_2]]) stream([[STREAM]]) mems([[CP_5]], [[DEV]], [[S_3]]) args(%x_dev, %w_dev, %bias_dev, %y_dev) : (!mem.ptr<!mem.array<2 x !mem.array<3 x i32>>, 1>, !mem.ptr<!mem.array<3 x !mem.array<4 x i32>>, 1>, !mem.ptr<!mem.array<4 x i32>, 1>, !mem.ptr<!mem.array<2 x !mem.array<4 x i32>>, 1>)
// BIAS-RELU-NEXT:   [[BUF:%.*]], %y = buffer.alloc [[L]] : !buffer.buf<2x4xi32>
// BIAS-RELU-NEXT:   [[BK:%.*]], [[BK_2:%.*]] = gpu.buf_copy_to_host [[BUF]], [[L_2]], %y_dev -> %y : !mem.ptr<!mem.array<2 x !mem.array<4 x i32>>, 1> -> !buffer.buf<2x4xi32>
// BIAS-RELU-NEXT:   [[FR:%.*]] = gpu.free.block [[BK_2]], %x_dev : !mem.ptr<!mem.array<2 x !mem.array<3 x i32>>, 1>
// BIAS-RELU-NEXT:   [[FR_2:%.*]] = gpu.free.block [[FR]], %w_dev : !mem.ptr<!mem.array<3 x !mem.array<4 x i32>>, 1>
// BIAS-RELU-NEXT:   [[FR_3:%.*]] = gpu.free.block [[FR_2]], %bias_dev : !mem.ptr<!mem.array<4 x i32>, 1>
// BIAS-RELU-NEXT:   [[FR_4:%.*]] = gpu.free.block [[FR_3]], %y_dev : !mem.ptr<!mem.array<2 x !mem.array<4 x i32>>, 1>
// BIAS-RELU-NEXT:   %m4 = gpu.auto_deinit [[BK]], [[FR_4]], [[L_3]]
// BIAS-RELU-NEXT:   %m5 = buffer.print %m4, %y : !buffer.buf<2x4xi32>
// BIAS-RELU-NEXT:   func.return %m5 : !mem.M<0>
// BIAS-RELU-NEXT: }
