// RUN: gpu-opt %s -p merge-init-deinit --split-input-file | filecheck %s
// RUN: gpu-opt %s -p lower-btensor-map-reduce,merge-init-deinit --split-input-file | filecheck %s --check-prefix=LOWERED
// RUN: gpu-opt %s -p merge-init-deinit --split-input-file --mlir-pass-statistics -o /dev/null 2>&1 | filecheck %s --check-prefix=STATS

// The statistics of the whole file: the three sessions merged below (15 gpu.auto_init before,
// 12 after).
// STATS:      {{^}}MergeInitDeinit
// STATS-NEXT:   (S) 3 num-sessions-merged - Number of device sessions merged into the previous one

// A gpu.auto_init whose host token comes, through host-only ops of the same block, from a
// gpu.auto_deinit reopens the device just closed: both go, and one session spans both.

// After lower-btensor-map-reduce (as in gpu-pipeline): two ops that do not read each other's
// output get a session each; merged, one session holds both.

func.func @lowered(%m: !mem.M<0>, %x: !buffer.buf<4xi32>) -> (!mem.M<0>, !buffer.buf<4xi32>, !buffer.buf<4xi32>) {
  %one = arith.constant 1 : i32
  %m1, %y = btensor.map_reduce %m ins(%x : !buffer.buf<4xi32>) init(%one : i32)
      {out_rank = 1 : i64, shape = array<i64: 4>, maps = [affine_map<(i) -> (i)>],
      out_map = affine_map<(i) -> (i)>} combiner {
    ^bb0(%acc: i32, %v: i32):
      %r = arith.addi %acc, %v : i32
      btensor.yield %r : i32
  } : !buffer.buf<4xi32>
  %m2 = buffer.print %m1, %y : !buffer.buf<4xi32>
  %m3, %z = btensor.map_reduce %m2 ins(%x : !buffer.buf<4xi32>) init(%one : i32)
      {out_rank = 1 : i64, shape = array<i64: 4>, maps = [affine_map<(i) -> (i)>],
      out_map = affine_map<(i) -> (i)>} combiner {
    ^bb0(%acc: i32, %v: i32):
      %r = arith.muli %acc, %v : i32
      btensor.yield %r : i32
  } : !buffer.buf<4xi32>
  func.return %m3, %y, %z : !mem.M<0>, !buffer.buf<4xi32>, !buffer.buf<4xi32>
}

// LOWERED-LABEL: func.func @lowered(%m: !mem.M<0>, %x: !buffer.buf<4xi32>) -> (!mem.M<0>, !buffer.buf<4xi32>, !buffer.buf<4xi32>) {
// LOWERED-NEXT:   %one = arith.constant 1 : i32
// LOWERED-NEXT:   [[V0:%[0-9]+]], [[V1:%[0-9]+]], [[V2:%[0-9]+]] = gpu.auto_init %m
// LOWERED-NEXT:   [[V3:%[0-9]+]], [[V4:%[0-9]+]], %x_dev = gpu.buf_alloc_copy [[V0]], [[V1]], %x : !buffer.buf<4xi32> -> !mem.ptr<!mem.array<4 x i32>, 1>
// LOWERED-NEXT:   [[V5:%[0-9]+]], %y_dev = gpu.alloc.block [[V4]] : !mem.ptr<!mem.array<4 x i32>, 1>
// LOWERED-NEXT:   [[V6:%[0-9]+]] = gpu.default_stream
// LOWERED-NEXT:   [[V7:%[0-9]+]] = arith.constant 1 : index
// LOWERED-NEXT:   [[V8:%[0-9]+]] = arith.constant 4 : index
// LOWERED-NEXT:   [[V9:%[0-9]+]], [[V10:%[0-9]+]], [[V11:%[0-9]+]] = gpu.launch @map_reduce_kernel_0 grid([[V7]], [[V8]]) stream([[V6]]) mems([[V3]], [[V5]], [[V2]]) args(%x_dev, %y_dev) : (!mem.ptr<!mem.array<4 x i32>, 1>, !mem.ptr<!mem.array<4 x i32>, 1>)
// LOWERED-NEXT:   [[V12:%[0-9]+]], %y = buffer.alloc [[V9]] : !buffer.buf<4xi32>
// LOWERED-NEXT:   %m1, [[V13:%[0-9]+]] = gpu.buf_copy_to_host [[V12]], [[V10]], %y_dev -> %y : !mem.ptr<!mem.array<4 x i32>, 1> -> !buffer.buf<4xi32>
// LOWERED-NEXT:   [[V14:%[0-9]+]] = gpu.free.block [[V13]], %x_dev : !mem.ptr<!mem.array<4 x i32>, 1>
// LOWERED-NEXT:   [[V15:%[0-9]+]] = gpu.free.block [[V14]], %y_dev : !mem.ptr<!mem.array<4 x i32>, 1>
// LOWERED-NEXT:   %m2 = buffer.print %m1, %y : !buffer.buf<4xi32>
// LOWERED-NEXT:   [[V16:%[0-9]+]], [[V17:%[0-9]+]], %x_dev_1 = gpu.buf_alloc_copy %m2, [[V15]], %x : !buffer.buf<4xi32> -> !mem.ptr<!mem.array<4 x i32>, 1>
// LOWERED-NEXT:   [[V18:%[0-9]+]], %z_dev = gpu.alloc.block [[V17]] : !mem.ptr<!mem.array<4 x i32>, 1>
// LOWERED-NEXT:   [[V19:%[0-9]+]] = gpu.default_stream
// LOWERED-NEXT:   [[V20:%[0-9]+]] = arith.constant 1 : index
// LOWERED-NEXT:   [[V21:%[0-9]+]] = arith.constant 4 : index
// LOWERED-NEXT:   [[V22:%[0-9]+]], [[V23:%[0-9]+]], [[V24:%[0-9]+]] = gpu.launch @map_reduce_kernel_1 grid([[V20]], [[V21]]) stream([[V19]]) mems([[V16]], [[V18]], [[V11]]) args(%x_dev_1, %z_dev) : (!mem.ptr<!mem.array<4 x i32>, 1>, !mem.ptr<!mem.array<4 x i32>, 1>)
// LOWERED-NEXT:   [[V25:%[0-9]+]], %z = buffer.alloc [[V22]] : !buffer.buf<4xi32>
// LOWERED-NEXT:   [[V26:%[0-9]+]], [[V27:%[0-9]+]] = gpu.buf_copy_to_host [[V25]], [[V23]], %z_dev -> %z : !mem.ptr<!mem.array<4 x i32>, 1> -> !buffer.buf<4xi32>
// LOWERED-NEXT:   [[V28:%[0-9]+]] = gpu.free.block [[V27]], %x_dev_1 : !mem.ptr<!mem.array<4 x i32>, 1>
// LOWERED-NEXT:   [[V29:%[0-9]+]] = gpu.free.block [[V28]], %z_dev : !mem.ptr<!mem.array<4 x i32>, 1>
// LOWERED-NEXT:   %m3 = gpu.auto_deinit [[V26]], [[V29]], [[V24]]
// LOWERED-NEXT:   func.return %m3, %y, %z : !mem.M<0>, !buffer.buf<4xi32>, !buffer.buf<4xi32>
// LOWERED-NEXT: }

// -----

// Three sessions with host code between them (a load and a store on the host token, a
// buffer.print) become one: the deinits go, the later inits' device tokens are the ones the
// deinits consumed.

func.func @back_to_back(%m: !mem.M<0>, %h: !mem.ptr<i32, 0>, %b: !buffer.buf<2xi32>) -> !mem.M<0> {
  %a0, %a1, %a4 = gpu.auto_init %m
  %b1, %p = gpu.alloc.block %a1 : !mem.ptr<i32, 1>
  %c1 = gpu.free.block %b1, %p : !mem.ptr<i32, 1>
  %d0 = gpu.auto_deinit %a0, %c1, %a4
  %e0, %v = mem.load %d0, %h : !mem.ptr<i32, 0>
  %f0 = mem.store %e0, %h, %v : !mem.ptr<i32, 0>
  %g0, %g1, %g4 = gpu.auto_init %f0
  %i1, %q = gpu.alloc.block %g1 : !mem.ptr<i32, 1>
  %j1 = gpu.free.block %i1, %q : !mem.ptr<i32, 1>
  %k0 = gpu.auto_deinit %g0, %j1, %g4
  %l0 = buffer.print %k0, %b : !buffer.buf<2xi32>
  %n0, %n1, %n4 = gpu.auto_init %l0
  %o0 = gpu.auto_deinit %n0, %n1, %n4
  func.return %o0 : !mem.M<0>
}

// CHECK-LABEL: func.func @back_to_back(%m: !mem.M<0>, %h: !mem.ptr<i32, 0>, %b: !buffer.buf<2xi32>) -> !mem.M<0> {
// CHECK-NEXT:   %a0, %a1, %a4 = gpu.auto_init %m
// CHECK-NEXT:   %b1, %p = gpu.alloc.block %a1 : !mem.ptr<i32, 1>
// CHECK-NEXT:   %c1 = gpu.free.block %b1, %p : !mem.ptr<i32, 1>
// CHECK-NEXT:   %e0, %v = mem.load %a0, %h : !mem.ptr<i32, 0>
// CHECK-NEXT:   %f0 = mem.store %e0, %h, %v : !mem.ptr<i32, 0>
// CHECK-NEXT:   %i1, %q = gpu.alloc.block %c1 : !mem.ptr<i32, 1>
// CHECK-NEXT:   %j1 = gpu.free.block %i1, %q : !mem.ptr<i32, 1>
// CHECK-NEXT:   %l0 = buffer.print %f0, %b : !buffer.buf<2xi32>
// CHECK-NEXT:   %o0 = gpu.auto_deinit %l0, %j1, %a4
// CHECK-NEXT:   func.return %o0 : !mem.M<0>
// CHECK-NEXT: }

// -----

// A loop of host code only (on !mem.M<0>) is one hop.

func.func @loop_between(%m: !mem.M<0>, %h: !mem.ptr<i32, 0>, %n: index) -> !mem.M<0> {
  %a0, %a1, %a4 = gpu.auto_init %m
  %d0 = gpu.auto_deinit %a0, %a1, %a4
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %l0 = scf.for %k = %c0 to %n step %c1 iter_args(%t = %d0) -> (!mem.M<0>) {
    %t1, %v = mem.load %t, %h : !mem.ptr<i32, 0>
    %t2 = mem.store %t1, %h, %v : !mem.ptr<i32, 0>
    scf.yield %t2 : !mem.M<0>
  }
  %g0, %g1, %g4 = gpu.auto_init %l0
  %k0 = gpu.auto_deinit %g0, %g1, %g4
  func.return %k0 : !mem.M<0>
}

// CHECK-LABEL: func.func @loop_between(%m: !mem.M<0>, %h: !mem.ptr<i32, 0>, %n: index) -> !mem.M<0> {
// CHECK-NEXT:   %a0, %a1, %a4 = gpu.auto_init %m
// CHECK-NEXT:   %c0 = arith.constant 0 : index
// CHECK-NEXT:   %c1 = arith.constant 1 : index
// CHECK-NEXT:   %l0 = scf.for %k = %c0 to %n step %c1 iter_args(%t = %a0) -> (!mem.M<0>) {
// CHECK-NEXT:     %t1, %v = mem.load %t, %h : !mem.ptr<i32, 0>
// CHECK-NEXT:     %t2 = mem.store %t1, %h, %v : !mem.ptr<i32, 0>
// CHECK-NEXT:     scf.yield %t2 : !mem.M<0>
// CHECK-NEXT:   }
// CHECK-NEXT:   %k0 = gpu.auto_deinit %l0, %a1, %a4
// CHECK-NEXT:   func.return %k0 : !mem.M<0>
// CHECK-NEXT: }

// -----

// Not merged: the IR stays as it is.

// User sessions are never merged: neither a gpu.deinit followed by a gpu.auto_init, nor a
// gpu.auto_deinit followed by a gpu.init, nor two compiler sessions around a user session.

func.func @user_sessions(%m: !mem.M<0>) -> !mem.M<0> {
  %a0, %a1, %a4 = gpu.init %m
  %d0 = gpu.deinit %a0, %a1, %a4
  %g0, %g1, %g4 = gpu.auto_init %d0
  %k0 = gpu.auto_deinit %g0, %g1, %g4
  %n0, %n1, %n4 = gpu.init %k0
  %o0 = gpu.deinit %n0, %n1, %n4
  %p0, %p1, %p4 = gpu.auto_init %o0
  %q0 = gpu.auto_deinit %p0, %p1, %p4
  func.return %q0 : !mem.M<0>
}

// CHECK-LABEL: func.func @user_sessions(%m: !mem.M<0>) -> !mem.M<0> {
// CHECK-NEXT:   %a0, %a1, %a4 = gpu.init %m
// CHECK-NEXT:   %d0 = gpu.deinit %a0, %a1, %a4
// CHECK-NEXT:   %g0, %g1, %g4 = gpu.auto_init %d0
// CHECK-NEXT:   %k0 = gpu.auto_deinit %g0, %g1, %g4
// CHECK-NEXT:   %n0, %n1, %n4 = gpu.init %k0
// CHECK-NEXT:   %o0 = gpu.deinit %n0, %n1, %n4
// CHECK-NEXT:   %p0, %p1, %p4 = gpu.auto_init %o0
// CHECK-NEXT:   %q0 = gpu.auto_deinit %p0, %p1, %p4
// CHECK-NEXT:   func.return %q0 : !mem.M<0>
// CHECK-NEXT: }

// -----

// A call between the sessions (the callee may open a session of its own).

func.func private @host_work(!mem.M<0>) -> !mem.M<0>

func.func @call_between(%m: !mem.M<0>) -> !mem.M<0> {
  %a0, %a1, %a4 = gpu.auto_init %m
  %d0 = gpu.auto_deinit %a0, %a1, %a4
  %e0 = func.call @host_work(%d0) : (!mem.M<0>) -> !mem.M<0>
  %g0, %g1, %g4 = gpu.auto_init %e0
  %k0 = gpu.auto_deinit %g0, %g1, %g4
  func.return %k0 : !mem.M<0>
}

// CHECK-LABEL: func.func @call_between(%m: !mem.M<0>) -> !mem.M<0> {
// CHECK-NEXT:   %a0, %a1, %a4 = gpu.auto_init %m
// CHECK-NEXT:   %d0 = gpu.auto_deinit %a0, %a1, %a4
// CHECK-NEXT:   %e0 = func.call @host_work(%d0) : (!mem.M<0>) -> !mem.M<0>
// CHECK-NEXT:   %g0, %g1, %g4 = gpu.auto_init %e0
// CHECK-NEXT:   %k0 = gpu.auto_deinit %g0, %g1, %g4
// CHECK-NEXT:   func.return %k0 : !mem.M<0>
// CHECK-NEXT: }

// -----

// A loop between them that opens sessions itself, and, inside it, an init whose token is the
// loop's argument (a block argument) and one whose token comes from another block.

func.func @loops(%m: !mem.M<0>, %n: index) -> !mem.M<0> {
  %a0, %a1, %a4 = gpu.auto_init %m
  %d0 = gpu.auto_deinit %a0, %a1, %a4
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %l0 = scf.for %k = %c0 to %n step %c1 iter_args(%t = %d0) -> (!mem.M<0>) {
    %b0, %b1, %b4 = gpu.auto_init %t
    %t1 = gpu.auto_deinit %b0, %b1, %b4
    scf.yield %t1 : !mem.M<0>
  }
  %g0, %g1, %g4 = gpu.auto_init %l0
  %k0 = gpu.auto_deinit %g0, %g1, %g4
  %r0 = scf.execute_region -> !mem.M<0> {
    %s0, %s1, %s4 = gpu.auto_init %k0
    %u0 = gpu.auto_deinit %s0, %s1, %s4
    scf.yield %u0 : !mem.M<0>
  }
  func.return %r0 : !mem.M<0>
}

// CHECK-LABEL: func.func @loops(%m: !mem.M<0>, %n: index) -> !mem.M<0> {
// CHECK-NEXT:   %a0, %a1, %a4 = gpu.auto_init %m
// CHECK-NEXT:   %d0 = gpu.auto_deinit %a0, %a1, %a4
// CHECK-NEXT:   %c0 = arith.constant 0 : index
// CHECK-NEXT:   %c1 = arith.constant 1 : index
// CHECK-NEXT:   %l0 = scf.for %k = %c0 to %n step %c1 iter_args(%t = %d0) -> (!mem.M<0>) {
// CHECK-NEXT:     %b0, %b1, %b4 = gpu.auto_init %t
// CHECK-NEXT:     %t1 = gpu.auto_deinit %b0, %b1, %b4
// CHECK-NEXT:     scf.yield %t1 : !mem.M<0>
// CHECK-NEXT:   }
// CHECK-NEXT:   %g0, %g1, %g4 = gpu.auto_init %l0
// CHECK-NEXT:   %k0 = gpu.auto_deinit %g0, %g1, %g4
// CHECK-NEXT:   %r0 = scf.execute_region -> (!mem.M<0>) {
// CHECK-NEXT:     %s0, %s1, %s4 = gpu.auto_init %k0
// CHECK-NEXT:     %u0 = gpu.auto_deinit %s0, %s1, %s4
// CHECK-NEXT:     scf.yield %u0 : !mem.M<0>
// CHECK-NEXT:   }
// CHECK-NEXT:   func.return %r0 : !mem.M<0>
// CHECK-NEXT: }

// -----

// The deinit's token has two uses (the init would not be the only op after the session).

func.func @forked(%m: !mem.M<0>, %h: !mem.ptr<i32, 0>) -> (!mem.M<0>, !mem.M<0>) {
  %a0, %a1, %a4 = gpu.auto_init %m
  %d0 = gpu.auto_deinit %a0, %a1, %a4
  %e0, %v = mem.load %d0, %h : !mem.ptr<i32, 0>
  %g0, %g1, %g4 = gpu.auto_init %d0
  %k0 = gpu.auto_deinit %g0, %g1, %g4
  func.return %e0, %k0 : !mem.M<0>, !mem.M<0>
}

// CHECK-LABEL: func.func @forked(%m: !mem.M<0>, %h: !mem.ptr<i32, 0>) -> (!mem.M<0>, !mem.M<0>) {
// CHECK-NEXT:   %a0, %a1, %a4 = gpu.auto_init %m
// CHECK-NEXT:   %d0 = gpu.auto_deinit %a0, %a1, %a4
// CHECK-NEXT:   %e0, %v = mem.load %d0, %h : !mem.ptr<i32, 0>
// CHECK-NEXT:   %g0, %g1, %g4 = gpu.auto_init %d0
// CHECK-NEXT:   %k0 = gpu.auto_deinit %g0, %g1, %g4
// CHECK-NEXT:   func.return %e0, %k0 : !mem.M<0>, !mem.M<0>
// CHECK-NEXT: }
