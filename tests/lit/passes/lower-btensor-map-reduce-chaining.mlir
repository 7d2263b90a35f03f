// RUN: gpu-opt %s -p lower-btensor-map-reduce --split-input-file 2>/dev/null | filecheck %s
// RUN: gpu-opt %S/../../../examples/map_chain.mlir -p lower-btensor-map-reduce | filecheck %s --check-prefix=CHAIN
// RUN: gpu-opt %s -p lower-btensor-map-reduce --split-input-file --mlir-pass-statistics -o /dev/null 2>&1 | filecheck %s --check-prefix=STATS

// The statistics of the whole file: 11 kernels in 7 sessions, 2 outputs read on the device, 1
// op left to the CPU path.
// STATS:      {{^}}LowerBTensorMapReduce
// STATS-NEXT:   (S) 11 num-kernels-outlined       - Number of map-reduces outlined into kernels
// STATS-NEXT:   (S)  1 num-left-on-cpu            - Number of map-reduces left to the CPU path
// STATS-NEXT:   (S)  2 num-outputs-kept-on-device - Number of outputs that later kernels read on the device
// STATS-NEXT:   (S)  7 num-sessions-opened        - Number of device sessions opened

// Device-resident chaining: an op whose output the next lowered ops of its block read (before any
// other use) leaves it on the device; they read its device pointer, and the last of them frees
// it after its launch. The session stays open until then: the ops in between join it.

// The map_chain example unfused: three launches in one session; y and z are never copied to the
// host or uploaded, y_dev is freed after the second launch, z_dev after the third. x is uploaded
// for the first op and again for the third (host buffers are not kept on the device).

// CHAIN-LABEL: func.func @main(%m: !mem.M<0>) -> !mem.M<0> {
// CHAIN-NEXT:   %m1, %x = buffer.init %m dense<[0.000000e+00, 1.000000e+00, 2.000000e+00, 3.000000e+00, -1.000000e+00, -2.500000e+00, 5.000000e-01, 1.000000e-01]> : tensor<8xf32>
// CHAIN-NEXT:   %zero = arith.constant 0.000000e+00 : f32
// CHAIN-NEXT:   [[V0:%[0-9]+]], [[V1:%[0-9]+]], [[V2:%[0-9]+]] = gpu.auto_init %m1
// CHAIN-NEXT:   [[V3:%[0-9]+]], [[V4:%[0-9]+]], %x_dev = gpu.buf_alloc_copy [[V0]], [[V1]], %x : !buffer.buf<8xf32> -> !mem.ptr<!mem.array<8 x f32>, 1>
// CHAIN-NEXT:   [[V5:%[0-9]+]], %y_dev = gpu.alloc.block [[V4]] : !mem.ptr<!mem.array<8 x f32>, 1>
// CHAIN-NEXT:   [[V6:%[0-9]+]] = gpu.default_stream
// CHAIN-NEXT:   [[V7:%[0-9]+]] = arith.constant 1 : index
// CHAIN-NEXT:   [[V8:%[0-9]+]] = arith.constant 8 : index
// CHAIN-NEXT:   %m2, [[V9:%[0-9]+]], [[V10:%[0-9]+]] = gpu.launch @map_reduce_kernel_0 grid([[V7]], [[V8]]) stream([[V6]]) mems([[V3]], [[V5]], [[V2]]) args(%x_dev, %y_dev) : (!mem.ptr<!mem.array<8 x f32>, 1>, !mem.ptr<!mem.array<8 x f32>, 1>)
// CHAIN-NEXT:   [[V11:%[0-9]+]] = gpu.free.block [[V9]], %x_dev : !mem.ptr<!mem.array<8 x f32>, 1>
// CHAIN-NEXT:   [[V12:%[0-9]+]], %z_dev = gpu.alloc.block [[V11]] : !mem.ptr<!mem.array<8 x f32>, 1>
// CHAIN-NEXT:   [[V13:%[0-9]+]] = gpu.default_stream
// CHAIN-NEXT:   [[V14:%[0-9]+]] = arith.constant 1 : index
// CHAIN-NEXT:   [[V15:%[0-9]+]] = arith.constant 8 : index
// CHAIN-NEXT:   %m3, [[V16:%[0-9]+]], [[V17:%[0-9]+]] = gpu.launch @map_reduce_kernel_1 grid([[V14]], [[V15]]) stream([[V13]]) mems(%m2, [[V12]], [[V10]]) args(%y_dev, %z_dev) : (!mem.ptr<!mem.array<8 x f32>, 1>, !mem.ptr<!mem.array<8 x f32>, 1>)
// CHAIN-NEXT:   [[V18:%[0-9]+]] = gpu.free.block [[V16]], %y_dev : !mem.ptr<!mem.array<8 x f32>, 1>
// CHAIN-NEXT:   [[V19:%[0-9]+]], [[V20:%[0-9]+]], %x_dev_1 = gpu.buf_alloc_copy %m3, [[V18]], %x : !buffer.buf<8xf32> -> !mem.ptr<!mem.array<8 x f32>, 1>
// CHAIN-NEXT:   [[V21:%[0-9]+]], %w_dev = gpu.alloc.block [[V20]] : !mem.ptr<!mem.array<8 x f32>, 1>
// CHAIN-NEXT:   [[V22:%[0-9]+]] = gpu.default_stream
// CHAIN-NEXT:   [[V23:%[0-9]+]] = arith.constant 1 : index
// CHAIN-NEXT:   [[V24:%[0-9]+]] = arith.constant 8 : index
// CHAIN-NEXT:   [[V25:%[0-9]+]], [[V26:%[0-9]+]], [[V27:%[0-9]+]] = gpu.launch @map_reduce_kernel_2 grid([[V23]], [[V24]]) stream([[V22]]) mems([[V19]], [[V21]], [[V17]]) args(%z_dev, %x_dev_1, %w_dev) : (!mem.ptr<!mem.array<8 x f32>, 1>, !mem.ptr<!mem.array<8 x f32>, 1>, !mem.ptr<!mem.array<8 x f32>, 1>)
// CHAIN-NEXT:   [[V28:%[0-9]+]], %w = buffer.alloc [[V25]] : !buffer.buf<8xf32>
// CHAIN-NEXT:   [[V29:%[0-9]+]], [[V30:%[0-9]+]] = gpu.buf_copy_to_host [[V28]], [[V26]], %w_dev -> %w : !mem.ptr<!mem.array<8 x f32>, 1> -> !buffer.buf<8xf32>
// CHAIN-NEXT:   [[V31:%[0-9]+]] = gpu.free.block [[V30]], %z_dev : !mem.ptr<!mem.array<8 x f32>, 1>
// CHAIN-NEXT:   [[V32:%[0-9]+]] = gpu.free.block [[V31]], %x_dev_1 : !mem.ptr<!mem.array<8 x f32>, 1>
// CHAIN-NEXT:   [[V33:%[0-9]+]] = gpu.free.block [[V32]], %w_dev : !mem.ptr<!mem.array<8 x f32>, 1>
// CHAIN-NEXT:   %m4 = gpu.auto_deinit [[V29]], [[V33]], [[V27]]
// CHAIN-NEXT:   %m5 = buffer.print %m4, %w : !buffer.buf<8xf32>
// CHAIN-NEXT:   func.return %m5 : !mem.M<0>
// CHAIN-NEXT: }

// -----

// y is also returned: it is copied back after the first launch, and the second kernel still
// reads y_dev (no upload); y_dev is freed after the second launch.

func.func @host_visible(%m: !mem.M<0>, %x: !buffer.buf<4xi32>)
    -> (!mem.M<0>, !buffer.buf<4xi32>, !buffer.buf<4xi32>) {
  %one = arith.constant 1 : i32
  %m1, %y = btensor.map_reduce %m ins(%x : !buffer.buf<4xi32>) init(%one : i32)
      {out_rank = 1 : i64, shape = array<i64: 4>, maps = [affine_map<(i) -> (i)>],
      out_map = affine_map<(i) -> (i)>} combiner {
    ^bb0(%acc: i32, %v: i32):
      %r = arith.addi %acc, %v : i32
      btensor.yield %r : i32
  } : !buffer.buf<4xi32>
  %m2, %z = btensor.map_reduce %m1 ins(%y : !buffer.buf<4xi32>) init(%one : i32)
      {out_rank = 1 : i64, shape = array<i64: 4>, maps = [affine_map<(i) -> (i)>],
      out_map = affine_map<(i) -> (i)>} combiner {
    ^bb0(%acc: i32, %v: i32):
      %r = arith.addi %acc, %v : i32
      btensor.yield %r : i32
  } : !buffer.buf<4xi32>
  func.return %m2, %y, %z : !mem.M<0>, !buffer.buf<4xi32>, !buffer.buf<4xi32>
}

// CHECK-LABEL: func.func @host_visible(%m: !mem.M<0>, %x: !buffer.buf<4xi32>) -> (!mem.M<0>, !buffer.buf<4xi32>, !buffer.buf<4xi32>) {
// CHECK-NEXT:   %one = arith.constant 1 : i32
// CHECK-NEXT:   [[V0:%[0-9]+]], [[V1:%[0-9]+]], [[V2:%[0-9]+]] = gpu.auto_init %m
// CHECK-NEXT:   [[V3:%[0-9]+]], [[V4:%[0-9]+]], %x_dev = gpu.buf_alloc_copy [[V0]], [[V1]], %x : !buffer.buf<4xi32> -> !mem.ptr<!mem.array<4 x i32>, 1>
// CHECK-NEXT:   [[V5:%[0-9]+]], %y_dev = gpu.alloc.block [[V4]] : !mem.ptr<!mem.array<4 x i32>, 1>
// CHECK-NEXT:   [[V6:%[0-9]+]] = gpu.default_stream
// CHECK-NEXT:   [[V7:%[0-9]+]] = arith.constant 1 : index
// CHECK-NEXT:   [[V8:%[0-9]+]] = arith.constant 4 : index
// CHECK-NEXT:   [[V9:%[0-9]+]], [[V10:%[0-9]+]], [[V11:%[0-9]+]] = gpu.launch @map_reduce_kernel_0 grid([[V7]], [[V8]]) stream([[V6]]) mems([[V3]], [[V5]], [[V2]]) args(%x_dev, %y_dev) : (!mem.ptr<!mem.array<4 x i32>, 1>, !mem.ptr<!mem.array<4 x i32>, 1>)
// CHECK-NEXT:   [[V12:%[0-9]+]], %y = buffer.alloc [[V9]] : !buffer.buf<4xi32>
// CHECK-NEXT:   %m1, [[V13:%[0-9]+]] = gpu.buf_copy_to_host [[V12]], [[V10]], %y_dev -> %y : !mem.ptr<!mem.array<4 x i32>, 1> -> !buffer.buf<4xi32>
// CHECK-NEXT:   [[V14:%[0-9]+]] = gpu.free.block [[V13]], %x_dev : !mem.ptr<!mem.array<4 x i32>, 1>
// CHECK-NEXT:   [[V15:%[0-9]+]], %z_dev = gpu.alloc.block [[V14]] : !mem.ptr<!mem.array<4 x i32>, 1>
// CHECK-NEXT:   [[V16:%[0-9]+]] = gpu.default_stream
// CHECK-NEXT:   [[V17:%[0-9]+]] = arith.constant 1 : index
// CHECK-NEXT:   [[V18:%[0-9]+]] = arith.constant 4 : index
// CHECK-NEXT:   [[V19:%[0-9]+]], [[V20:%[0-9]+]], [[V21:%[0-9]+]] = gpu.launch @map_reduce_kernel_1 grid([[V17]], [[V18]]) stream([[V16]]) mems(%m1, [[V15]], [[V11]]) args(%y_dev, %z_dev) : (!mem.ptr<!mem.array<4 x i32>, 1>, !mem.ptr<!mem.array<4 x i32>, 1>)
// CHECK-NEXT:   [[V22:%[0-9]+]], %z = buffer.alloc [[V19]] : !buffer.buf<4xi32>
// CHECK-NEXT:   [[V23:%[0-9]+]], [[V24:%[0-9]+]] = gpu.buf_copy_to_host [[V22]], [[V20]], %z_dev -> %z : !mem.ptr<!mem.array<4 x i32>, 1> -> !buffer.buf<4xi32>
// CHECK-NEXT:   [[V25:%[0-9]+]] = gpu.free.block [[V24]], %y_dev : !mem.ptr<!mem.array<4 x i32>, 1>
// CHECK-NEXT:   [[V26:%[0-9]+]] = gpu.free.block [[V25]], %z_dev : !mem.ptr<!mem.array<4 x i32>, 1>
// CHECK-NEXT:   %m2 = gpu.auto_deinit [[V23]], [[V26]], [[V21]]
// CHECK-NEXT:   func.return %m2, %y, %z : !mem.M<0>, !buffer.buf<4xi32>, !buffer.buf<4xi32>
// CHECK-NEXT: }

// -----

// Two consumers of y, and an independent op between them: all three join the first op's
// session; y_dev is freed after the last consumer's launch.

func.func @fan_out(%m: !mem.M<0>, %x: !buffer.buf<4xi32>, %a: !buffer.buf<2xi32>)
    -> (!mem.M<0>, !buffer.buf<4xi32>, !buffer.buf<2xi32>, !buffer.buf<4xi32>) {
  %one = arith.constant 1 : i32
  %m1, %y = btensor.map_reduce %m ins(%x : !buffer.buf<4xi32>) init(%one : i32)
      {out_rank = 1 : i64, shape = array<i64: 4>, maps = [affine_map<(i) -> (i)>],
      out_map = affine_map<(i) -> (i)>} combiner {
    ^bb0(%acc: i32, %v: i32):
      %r = arith.addi %acc, %v : i32
      btensor.yield %r : i32
  } : !buffer.buf<4xi32>
  %m2, %z = btensor.map_reduce %m1 ins(%y : !buffer.buf<4xi32>) init(%one : i32)
      {out_rank = 1 : i64, shape = array<i64: 4>, maps = [affine_map<(i) -> (i)>],
      out_map = affine_map<(i) -> (i)>} combiner {
    ^bb0(%acc: i32, %v: i32):
      %r = arith.muli %acc, %v : i32
      btensor.yield %r : i32
  } : !buffer.buf<4xi32>
  %m3, %b = btensor.map_reduce %m2 ins(%a : !buffer.buf<2xi32>) init(%one : i32)
      {out_rank = 1 : i64, shape = array<i64: 2>, maps = [affine_map<(i) -> (i)>],
      out_map = affine_map<(i) -> (i)>} combiner {
    ^bb0(%acc: i32, %v: i32):
      %r = arith.subi %acc, %v : i32
      btensor.yield %r : i32
  } : !buffer.buf<2xi32>
  %m4, %w = btensor.map_reduce %m3 ins(%y : !buffer.buf<4xi32>) init(%one : i32)
      {out_rank = 1 : i64, shape = array<i64: 4>, maps = [affine_map<(i) -> (i)>],
      out_map = affine_map<(i) -> (i)>} combiner {
    ^bb0(%acc: i32, %v: i32):
      %r = arith.subi %acc, %v : i32
      btensor.yield %r : i32
  } : !buffer.buf<4xi32>
  func.return %m4, %z, %b, %w : !mem.M<0>, !buffer.buf<4xi32>, !buffer.buf<2xi32>, !buffer.buf<4xi32>
}

// CHECK-LABEL: func.func @fan_out(%m: !mem.M<0>, %x: !buffer.buf<4xi32>, %a: !buffer.buf<2xi32>) -> (!mem.M<0>, !buffer.buf<4xi32>, !buffer.buf<2xi32>, !buffer.buf<4xi32>) {
// CHECK-NEXT:   %one = arith.constant 1 : i32
// CHECK-NEXT:   [[V0:%[0-9]+]], [[V1:%[0-9]+]], [[V2:%[0-9]+]] = gpu.auto_init %m
// CHECK-NEXT:   [[V3:%[0-9]+]], [[V4:%[0-9]+]], %x_dev = gpu.buf_alloc_copy [[V0]], [[V1]], %x : !buffer.buf<4xi32> -> !mem.ptr<!mem.array<4 x i32>, 1>
// CHECK-NEXT:   [[V5:%[0-9]+]], %y_dev = gpu.alloc.block [[V4]] : !mem.ptr<!mem.array<4 x i32>, 1>
// CHECK-NEXT:   [[V6:%[0-9]+]] = gpu.default_stream
// CHECK-NEXT:   [[V7:%[0-9]+]] = arith.constant 1 : index
// CHECK-NEXT:   [[V8:%[0-9]+]] = arith.constant 4 : index
// CHECK-NEXT:   %m1, [[V9:%[0-9]+]], [[V10:%[0-9]+]] = gpu.launch @map_reduce_kernel_0 grid([[V7]], [[V8]]) stream([[V6]]) mems([[V3]], [[V5]], [[V2]]) args(%x_dev, %y_dev) : (!mem.ptr<!mem.array<4 x i32>, 1>, !mem.ptr<!mem.array<4 x i32>, 1>)
// CHECK-NEXT:   [[V11:%[0-9]+]] = gpu.free.block [[V9]], %x_dev : !mem.ptr<!mem.array<4 x i32>, 1>
// CHECK-NEXT:   [[V12:%[0-9]+]], %z_dev = gpu.alloc.block [[V11]] : !mem.ptr<!mem.array<4 x i32>, 1>
// CHECK-NEXT:   [[V13:%[0-9]+]] = gpu.default_stream
// CHECK-NEXT:   [[V14:%[0-9]+]] = arith.constant 1 : index
// CHECK-NEXT:   [[V15:%[0-9]+]] = arith.constant 4 : index
// CHECK-NEXT:   [[V16:%[0-9]+]], [[V17:%[0-9]+]], [[V18:%[0-9]+]] = gpu.launch @map_reduce_kernel_1 grid([[V14]], [[V15]]) stream([[V13]]) mems(%m1, [[V12]], [[V10]]) args(%y_dev, %z_dev) : (!mem.ptr<!mem.array<4 x i32>, 1>, !mem.ptr<!mem.array<4 x i32>, 1>)
// CHECK-NEXT:   [[V19:%[0-9]+]], %z = buffer.alloc [[V16]] : !buffer.buf<4xi32>
// CHECK-NEXT:   %m2, [[V20:%[0-9]+]] = gpu.buf_copy_to_host [[V19]], [[V17]], %z_dev -> %z : !mem.ptr<!mem.array<4 x i32>, 1> -> !buffer.buf<4xi32>
// CHECK-NEXT:   [[V21:%[0-9]+]] = gpu.free.block [[V20]], %z_dev : !mem.ptr<!mem.array<4 x i32>, 1>
// CHECK-NEXT:   [[V22:%[0-9]+]], [[V23:%[0-9]+]], %a_dev = gpu.buf_alloc_copy %m2, [[V21]], %a : !buffer.buf<2xi32> -> !mem.ptr<!mem.array<2 x i32>, 1>
// CHECK-NEXT:   [[V24:%[0-9]+]], %b_dev = gpu.alloc.block [[V23]] : !mem.ptr<!mem.array<2 x i32>, 1>
// CHECK-NEXT:   [[V25:%[0-9]+]] = gpu.default_stream
// CHECK-NEXT:   [[V26:%[0-9]+]] = arith.constant 1 : index
// CHECK-NEXT:   [[V27:%[0-9]+]] = arith.constant 2 : index
// CHECK-NEXT:   [[V28:%[0-9]+]], [[V29:%[0-9]+]], [[V30:%[0-9]+]] = gpu.launch @map_reduce_kernel_2 grid([[V26]], [[V27]]) stream([[V25]]) mems([[V22]], [[V24]], [[V18]]) args(%a_dev, %b_dev) : (!mem.ptr<!mem.array<2 x i32>, 1>, !mem.ptr<!mem.array<2 x i32>, 1>)
// CHECK-NEXT:   [[V31:%[0-9]+]], %b = buffer.alloc [[V28]] : !buffer.buf<2xi32>
// CHECK-NEXT:   %m3, [[V32:%[0-9]+]] = gpu.buf_copy_to_host [[V31]], [[V29]], %b_dev -> %b : !mem.ptr<!mem.array<2 x i32>, 1> -> !buffer.buf<2xi32>
// CHECK-NEXT:   [[V33:%[0-9]+]] = gpu.free.block [[V32]], %a_dev : !mem.ptr<!mem.array<2 x i32>, 1>
// CHECK-NEXT:   [[V34:%[0-9]+]] = gpu.free.block [[V33]], %b_dev : !mem.ptr<!mem.array<2 x i32>, 1>
// CHECK-NEXT:   [[V35:%[0-9]+]], %w_dev = gpu.alloc.block [[V34]] : !mem.ptr<!mem.array<4 x i32>, 1>
// CHECK-NEXT:   [[V36:%[0-9]+]] = gpu.default_stream
// CHECK-NEXT:   [[V37:%[0-9]+]] = arith.constant 1 : index
// CHECK-NEXT:   [[V38:%[0-9]+]] = arith.constant 4 : index
// CHECK-NEXT:   [[V39:%[0-9]+]], [[V40:%[0-9]+]], [[V41:%[0-9]+]] = gpu.launch @map_reduce_kernel_3 grid([[V37]], [[V38]]) stream([[V36]]) mems(%m3, [[V35]], [[V30]]) args(%y_dev, %w_dev) : (!mem.ptr<!mem.array<4 x i32>, 1>, !mem.ptr<!mem.array<4 x i32>, 1>)
// CHECK-NEXT:   [[V42:%[0-9]+]], %w = buffer.alloc [[V39]] : !buffer.buf<4xi32>
// CHECK-NEXT:   [[V43:%[0-9]+]], [[V44:%[0-9]+]] = gpu.buf_copy_to_host [[V42]], [[V40]], %w_dev -> %w : !mem.ptr<!mem.array<4 x i32>, 1> -> !buffer.buf<4xi32>
// CHECK-NEXT:   [[V45:%[0-9]+]] = gpu.free.block [[V44]], %y_dev : !mem.ptr<!mem.array<4 x i32>, 1>
// CHECK-NEXT:   [[V46:%[0-9]+]] = gpu.free.block [[V45]], %w_dev : !mem.ptr<!mem.array<4 x i32>, 1>
// CHECK-NEXT:   %m4 = gpu.auto_deinit [[V43]], [[V46]], [[V41]]
// CHECK-NEXT:   func.return %m4, %z, %b, %w : !mem.M<0>, !buffer.buf<4xi32>, !buffer.buf<2xi32>, !buffer.buf<4xi32>
// CHECK-NEXT: }

// -----

// Not chained: every op has a session of its own and copies its output back.

// The host reads y (buffer.print) before the second op: y is copied back, the session closes,
// and the second op uploads y again in a session of its own.

func.func @host_use_first(%m: !mem.M<0>, %x: !buffer.buf<4xi32>) -> (!mem.M<0>, !buffer.buf<4xi32>) {
  %one = arith.constant 1 : i32
  %m1, %y = btensor.map_reduce %m ins(%x : !buffer.buf<4xi32>) init(%one : i32)
      {out_rank = 1 : i64, shape = array<i64: 4>, maps = [affine_map<(i) -> (i)>],
      out_map = affine_map<(i) -> (i)>} combiner {
    ^bb0(%acc: i32, %v: i32):
      %r = arith.addi %acc, %v : i32
      btensor.yield %r : i32
  } : !buffer.buf<4xi32>
  %m2 = buffer.print %m1, %y : !buffer.buf<4xi32>
  %m3, %z = btensor.map_reduce %m2 ins(%y : !buffer.buf<4xi32>) init(%one : i32)
      {out_rank = 1 : i64, shape = array<i64: 4>, maps = [affine_map<(i) -> (i)>],
      out_map = affine_map<(i) -> (i)>} combiner {
    ^bb0(%acc: i32, %v: i32):
      %r = arith.addi %acc, %v : i32
      btensor.yield %r : i32
  } : !buffer.buf<4xi32>
  func.return %m3, %z : !mem.M<0>, !buffer.buf<4xi32>
}

// CHECK-LABEL: func.func @host_use_first(%m: !mem.M<0>, %x: !buffer.buf<4xi32>) -> (!mem.M<0>, !buffer.buf<4xi32>) {
// CHECK-NEXT:   %one = arith.constant 1 : i32
// CHECK-NEXT:   [[V0:%[0-9]+]], [[V1:%[0-9]+]], [[V2:%[0-9]+]] = gpu.auto_init %m
// CHECK-NEXT:   [[V3:%[0-9]+]], [[V4:%[0-9]+]], %x_dev = gpu.buf_alloc_copy [[V0]], [[V1]], %x : !buffer.buf<4xi32> -> !mem.ptr<!mem.array<4 x i32>, 1>
// CHECK-NEXT:   [[V5:%[0-9]+]], %y_dev = gpu.alloc.block [[V4]] : !mem.ptr<!mem.array<4 x i32>, 1>
// CHECK-NEXT:   [[V6:%[0-9]+]] = gpu.default_stream
// CHECK-NEXT:   [[V7:%[0-9]+]] = arith.constant 1 : index
// CHECK-NEXT:   [[V8:%[0-9]+]] = arith.constant 4 : index
// CHECK-NEXT:   [[V9:%[0-9]+]], [[V10:%[0-9]+]], [[V11:%[0-9]+]] = gpu.launch @map_reduce_kernel_0 grid([[V7]], [[V8]]) stream([[V6]]) mems([[V3]], [[V5]], [[V2]]) args(%x_dev, %y_dev) : (!mem.ptr<!mem.array<4 x i32>, 1>, !mem.ptr<!mem.array<4 x i32>, 1>)
// CHECK-NEXT:   [[V12:%[0-9]+]], %y = buffer.alloc [[V9]] : !buffer.buf<4xi32>
// CHECK-NEXT:   [[V13:%[0-9]+]], [[V14:%[0-9]+]] = gpu.buf_copy_to_host [[V12]], [[V10]], %y_dev -> %y : !mem.ptr<!mem.array<4 x i32>, 1> -> !buffer.buf<4xi32>
// CHECK-NEXT:   [[V15:%[0-9]+]] = gpu.free.block [[V14]], %x_dev : !mem.ptr<!mem.array<4 x i32>, 1>
// CHECK-NEXT:   [[V16:%[0-9]+]] = gpu.free.block [[V15]], %y_dev : !mem.ptr<!mem.array<4 x i32>, 1>
// CHECK-NEXT:   %m1 = gpu.auto_deinit [[V13]], [[V16]], [[V11]]
// CHECK-NEXT:   %m2 = buffer.print %m1, %y : !buffer.buf<4xi32>
// CHECK-NEXT:   [[V17:%[0-9]+]], [[V18:%[0-9]+]], [[V19:%[0-9]+]] = gpu.auto_init %m2
// CHECK-NEXT:   [[V20:%[0-9]+]], [[V21:%[0-9]+]], %y_dev_1 = gpu.buf_alloc_copy [[V17]], [[V18]], %y : !buffer.buf<4xi32> -> !mem.ptr<!mem.array<4 x i32>, 1>
// CHECK-NEXT:   [[V22:%[0-9]+]], %z_dev = gpu.alloc.block [[V21]] : !mem.ptr<!mem.array<4 x i32>, 1>
// CHECK-NEXT:   [[V23:%[0-9]+]] = gpu.default_stream
// CHECK-NEXT:   [[V24:%[0-9]+]] = arith.constant 1 : index
// CHECK-NEXT:   [[V25:%[0-9]+]] = arith.constant 4 : index
// CHECK-NEXT:   [[V26:%[0-9]+]], [[V27:%[0-9]+]], [[V28:%[0-9]+]] = gpu.launch @map_reduce_kernel_1 grid([[V24]], [[V25]]) stream([[V23]]) mems([[V20]], [[V22]], [[V19]]) args(%y_dev_1, %z_dev) : (!mem.ptr<!mem.array<4 x i32>, 1>, !mem.ptr<!mem.array<4 x i32>, 1>)
// CHECK-NEXT:   [[V29:%[0-9]+]], %z = buffer.alloc [[V26]] : !buffer.buf<4xi32>
// CHECK-NEXT:   [[V30:%[0-9]+]], [[V31:%[0-9]+]] = gpu.buf_copy_to_host [[V29]], [[V27]], %z_dev -> %z : !mem.ptr<!mem.array<4 x i32>, 1> -> !buffer.buf<4xi32>
// CHECK-NEXT:   [[V32:%[0-9]+]] = gpu.free.block [[V31]], %y_dev_1 : !mem.ptr<!mem.array<4 x i32>, 1>
// CHECK-NEXT:   [[V33:%[0-9]+]] = gpu.free.block [[V32]], %z_dev : !mem.ptr<!mem.array<4 x i32>, 1>
// CHECK-NEXT:   %m3 = gpu.auto_deinit [[V30]], [[V33]], [[V28]]
// CHECK-NEXT:   func.return %m3, %z : !mem.M<0>, !buffer.buf<4xi32>
// CHECK-NEXT: }

// -----

// The consumer stays on the CPU path (its init is computed at run time): a host use.

func.func @cpu_consumer(%m: !mem.M<0>, %x: !buffer.buf<4xi32>, %c: i32) -> (!mem.M<0>, !buffer.buf<4xi32>) {
  %one = arith.constant 1 : i32
  %m1, %y = btensor.map_reduce %m ins(%x : !buffer.buf<4xi32>) init(%one : i32)
      {out_rank = 1 : i64, shape = array<i64: 4>, maps = [affine_map<(i) -> (i)>],
      out_map = affine_map<(i) -> (i)>} combiner {
    ^bb0(%acc: i32, %v: i32):
      %r = arith.addi %acc, %v : i32
      btensor.yield %r : i32
  } : !buffer.buf<4xi32>
  %m2, %z = btensor.map_reduce %m1 ins(%y : !buffer.buf<4xi32>) init(%c : i32)
      {out_rank = 1 : i64, shape = array<i64: 4>, maps = [affine_map<(i) -> (i)>],
      out_map = affine_map<(i) -> (i)>} combiner {
    ^bb0(%acc: i32, %v: i32):
      %r = arith.addi %acc, %v : i32
      btensor.yield %r : i32
  } : !buffer.buf<4xi32>
  func.return %m2, %z : !mem.M<0>, !buffer.buf<4xi32>
}

// CHECK-LABEL: func.func @cpu_consumer(%m: !mem.M<0>, %x: !buffer.buf<4xi32>, %c: i32) -> (!mem.M<0>, !buffer.buf<4xi32>) {
// CHECK-NEXT:   %one = arith.constant 1 : i32
// CHECK-NEXT:   [[V0:%[0-9]+]], [[V1:%[0-9]+]], [[V2:%[0-9]+]] = gpu.auto_init %m
// CHECK-NEXT:   [[V3:%[0-9]+]], [[V4:%[0-9]+]], %x_dev = gpu.buf_alloc_copy [[V0]], [[V1]], %x : !buffer.buf<4xi32> -> !mem.ptr<!mem.array<4 x i32>, 1>
// CHECK-NEXT:   [[V5:%[0-9]+]], %y_dev = gpu.alloc.block [[V4]] : !mem.ptr<!mem.array<4 x i32>, 1>
// CHECK-NEXT:   [[V6:%[0-9]+]] = gpu.default_stream
// CHECK-NEXT:   [[V7:%[0-9]+]] = arith.constant 1 : index
// CHECK-NEXT:   [[V8:%[0-9]+]] = arith.constant 4 : index
// CHECK-NEXT:   [[V9:%[0-9]+]], [[V10:%[0-9]+]], [[V11:%[0-9]+]] = gpu.launch @map_reduce_kernel_0 grid([[V7]], [[V8]]) stream([[V6]]) mems([[V3]], [[V5]], [[V2]]) args(%x_dev, %y_dev) : (!mem.ptr<!mem.array<4 x i32>, 1>, !mem.ptr<!mem.array<4 x i32>, 1>)
// CHECK-NEXT:   [[V12:%[0-9]+]], %y = buffer.alloc [[V9]] : !buffer.buf<4xi32>
// CHECK-NEXT:   [[V13:%[0-9]+]], [[V14:%[0-9]+]] = gpu.buf_copy_to_host [[V12]], [[V10]], %y_dev -> %y : !mem.ptr<!mem.array<4 x i32>, 1> -> !buffer.buf<4xi32>
// CHECK-NEXT:   [[V15:%[0-9]+]] = gpu.free.block [[V14]], %x_dev : !mem.ptr<!mem.array<4 x i32>, 1>
// CHECK-NEXT:   [[V16:%[0-9]+]] = gpu.free.block [[V15]], %y_dev : !mem.ptr<!mem.array<4 x i32>, 1>
// CHECK-NEXT:   %m1 = gpu.auto_deinit [[V13]], [[V16]], [[V11]]
// CHECK-NEXT:   %m2, %z = btensor.map_reduce %m1 ins(%y : !buffer.buf<4xi32>) init(%c : i32) {out_rank = 1 : i64, shape = array<i64: 4>, maps = [affine_map<(d0) -> (d0)>], out_map = affine_map<(d0) -> (d0)>} combiner {
// CHECK-NEXT:   ^bb0(%acc: i32, %v: i32):
// CHECK-NEXT:     %r = arith.addi %acc, %v : i32
// CHECK-NEXT:     btensor.yield %r : i32
// CHECK-NEXT:   } : !buffer.buf<4xi32>
// CHECK-NEXT:   func.return %m2, %z : !mem.M<0>, !buffer.buf<4xi32>
// CHECK-NEXT: }

// -----

// The consumer is in another block (a loop body): a host use at the loop.

func.func @other_block(%m: !mem.M<0>, %x: !buffer.buf<4xi32>) -> !mem.M<0> {
  %one = arith.constant 1 : i32
  %m1, %y = btensor.map_reduce %m ins(%x : !buffer.buf<4xi32>) init(%one : i32)
      {out_rank = 1 : i64, shape = array<i64: 4>, maps = [affine_map<(i) -> (i)>],
      out_map = affine_map<(i) -> (i)>} combiner {
    ^bb0(%acc: i32, %v: i32):
      %r = arith.addi %acc, %v : i32
      btensor.yield %r : i32
  } : !buffer.buf<4xi32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %m3 = scf.for %k = %c0 to %c2 step %c1 iter_args(%t = %m1) -> (!mem.M<0>) {
    %t1, %z = btensor.map_reduce %t ins(%y : !buffer.buf<4xi32>) init(%one : i32)
        {out_rank = 1 : i64, shape = array<i64: 4>, maps = [affine_map<(i) -> (i)>],
        out_map = affine_map<(i) -> (i)>} combiner {
      ^bb0(%acc: i32, %v: i32):
        %r = arith.addi %acc, %v : i32
        btensor.yield %r : i32
    } : !buffer.buf<4xi32>
    %t2 = buffer.print %t1, %z : !buffer.buf<4xi32>
    scf.yield %t2 : !mem.M<0>
  }
  func.return %m3 : !mem.M<0>
}

// CHECK-LABEL: func.func @other_block(%m: !mem.M<0>, %x: !buffer.buf<4xi32>) -> !mem.M<0> {
// CHECK-NEXT:   %one = arith.constant 1 : i32
// CHECK-NEXT:   [[V0:%[0-9]+]], [[V1:%[0-9]+]], [[V2:%[0-9]+]] = gpu.auto_init %m
// CHECK-NEXT:   [[V3:%[0-9]+]], [[V4:%[0-9]+]], %x_dev = gpu.buf_alloc_copy [[V0]], [[V1]], %x : !buffer.buf<4xi32> -> !mem.ptr<!mem.array<4 x i32>, 1>
// CHECK-NEXT:   [[V5:%[0-9]+]], %y_dev = gpu.alloc.block [[V4]] : !mem.ptr<!mem.array<4 x i32>, 1>
// CHECK-NEXT:   [[V6:%[0-9]+]] = gpu.default_stream
// CHECK-NEXT:   [[V7:%[0-9]+]] = arith.constant 1 : index
// CHECK-NEXT:   [[V8:%[0-9]+]] = arith.constant 4 : index
// CHECK-NEXT:   [[V9:%[0-9]+]], [[V10:%[0-9]+]], [[V11:%[0-9]+]] = gpu.launch @map_reduce_kernel_0 grid([[V7]], [[V8]]) stream([[V6]]) mems([[V3]], [[V5]], [[V2]]) args(%x_dev, %y_dev) : (!mem.ptr<!mem.array<4 x i32>, 1>, !mem.ptr<!mem.array<4 x i32>, 1>)
// CHECK-NEXT:   [[V12:%[0-9]+]], %y = buffer.alloc [[V9]] : !buffer.buf<4xi32>
// CHECK-NEXT:   [[V13:%[0-9]+]], [[V14:%[0-9]+]] = gpu.buf_copy_to_host [[V12]], [[V10]], %y_dev -> %y : !mem.ptr<!mem.array<4 x i32>, 1> -> !buffer.buf<4xi32>
// CHECK-NEXT:   [[V15:%[0-9]+]] = gpu.free.block [[V14]], %x_dev : !mem.ptr<!mem.array<4 x i32>, 1>
// CHECK-NEXT:   [[V16:%[0-9]+]] = gpu.free.block [[V15]], %y_dev : !mem.ptr<!mem.array<4 x i32>, 1>
// CHECK-NEXT:   %m1 = gpu.auto_deinit [[V13]], [[V16]], [[V11]]
// CHECK-NEXT:   %c0 = arith.constant 0 : index
// CHECK-NEXT:   %c1 = arith.constant 1 : index
// CHECK-NEXT:   %c2 = arith.constant 2 : index
// CHECK-NEXT:   %m3 = scf.for %k = %c0 to %c2 step %c1 iter_args(%t = %m1) -> (!mem.M<0>) {
// CHECK-NEXT:     [[V17:%[0-9]+]], [[V18:%[0-9]+]], [[V19:%[0-9]+]] = gpu.auto_init %t
// CHECK-NEXT:     [[V20:%[0-9]+]], [[V21:%[0-9]+]], %y_dev_1 = gpu.buf_alloc_copy [[V17]], [[V18]], %y : !buffer.buf<4xi32> -> !mem.ptr<!mem.array<4 x i32>, 1>
// CHECK-NEXT:     [[V22:%[0-9]+]], %z_dev = gpu.alloc.block [[V21]] : !mem.ptr<!mem.array<4 x i32>, 1>
// CHECK-NEXT:     [[V23:%[0-9]+]] = gpu.default_stream
// CHECK-NEXT:     [[V24:%[0-9]+]] = arith.constant 1 : index
// CHECK-NEXT:     [[V25:%[0-9]+]] = arith.constant 4 : index
// CHECK-NEXT:     [[V26:%[0-9]+]], [[V27:%[0-9]+]], [[V28:%[0-9]+]] = gpu.launch @map_reduce_kernel_1 grid([[V24]], [[V25]]) stream([[V23]]) mems([[V20]], [[V22]], [[V19]]) args(%y_dev_1, %z_dev) : (!mem.ptr<!mem.array<4 x i32>, 1>, !mem.ptr<!mem.array<4 x i32>, 1>)
// CHECK-NEXT:     [[V29:%[0-9]+]], %z = buffer.alloc [[V26]] : !buffer.buf<4xi32>
// CHECK-NEXT:     [[V30:%[0-9]+]], [[V31:%[0-9]+]] = gpu.buf_copy_to_host [[V29]], [[V27]], %z_dev -> %z : !mem.ptr<!mem.array<4 x i32>, 1> -> !buffer.buf<4xi32>
// CHECK-NEXT:     [[V32:%[0-9]+]] = gpu.free.block [[V31]], %y_dev_1 : !mem.ptr<!mem.array<4 x i32>, 1>
// CHECK-NEXT:     [[V33:%[0-9]+]] = gpu.free.block [[V32]], %z_dev : !mem.ptr<!mem.array<4 x i32>, 1>
// CHECK-NEXT:     %t1 = gpu.auto_deinit [[V30]], [[V33]], [[V28]]
// CHECK-NEXT:     %t2 = buffer.print %t1, %z : !buffer.buf<4xi32>
// CHECK-NEXT:     scf.yield %t2 : !mem.M<0>
// CHECK-NEXT:   }
// CHECK-NEXT:   func.return %m3 : !mem.M<0>
// CHECK-NEXT: }
