// RUN: gpu-opt %s -p check-barrier-divergence --verify-diagnostics --split-input-file
// RUN: not gpu-opt %s -p check-barrier-divergence --split-input-file 2>&1 | filecheck %s

// A barrier that some work-items of a group reach and others do not, when the launch, its
// group size and the conditions on the way to the barrier are known before the run. The
// messages whole (the places in them are paths):
// CHECK:      check-barrier-divergence-invalid.mlir:21:5: error: barrier divergence: in every work-group of the launch of @kernel at {{.*}}check-barrier-divergence-invalid.mlir:34:3 (4 work-items per group), work-item(s) 0-1 reach this barrier and work-item(s) 2-3 do not: they part at 'scf.if' at {{.*}}check-barrier-divergence-invalid.mlir:19:3; every work-item of a group must reach the same barriers
// CHECK:      check-barrier-divergence-invalid.mlir:52:5: error: barrier divergence: in work-group 2 of the launch of @kernel at {{.*}}check-barrier-divergence-invalid.mlir:67:3 (4 work-items per group), work-item(s) 0-1 reach this barrier and work-item(s) 2-3 do not: they part at 'scf.if' at {{.*}}check-barrier-divergence-invalid.mlir:50:3; every work-item of a group must reach the same barriers
// CHECK:      check-barrier-divergence-invalid.mlir:83:5: error: barrier divergence: in every work-group of the launch of @kernel at {{.*}}check-barrier-divergence-invalid.mlir:97:3 (8 work-items per group), work-item(s) 1-7 reach this barrier and work-item(s) 0 do not: they part at 'scf.for' at {{.*}}check-barrier-divergence-invalid.mlir:80:3; every work-item of a group must reach the same barriers
// CHECK:      check-barrier-divergence-invalid.mlir:119:7: error: barrier divergence: in every work-group of the launch of @kernel at {{.*}}check-barrier-divergence-invalid.mlir:134:3 (4 work-items per group), work-item(s) 2-3 reach this barrier and work-item(s) 0-1 do not: they part at 'scf.if' at {{.*}}check-barrier-divergence-invalid.mlir:112:3; every work-item of a group must reach the same barriers
// CHECK-NOT:  Traceback

// Work-items 0-1 of every group reach the barrier, 2-3 do not.
func.func @kernel(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
                  %group: index, %item: index)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
  %two = arith.constant 2 : index
  %low = arith.cmpi ult, %item, %two : index
  %r1, %r3 = scf.if %low -> (!mem.M<1>, !mem.M<3>) {
    // expected-error @below {{barrier divergence: in every work-group of the launch of @kernel at}}
    %s1, %s3 = gpu.sync_work_items %m1, %m3
    scf.yield %s1, %s3 : !mem.M<1>, !mem.M<3>
  } else {
    scf.yield %m1, %m3 : !mem.M<1>, !mem.M<3>
  }
  func.return %r1, %r3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}

func.func @main(%m: !mem.M<0>) -> !mem.M<0> {
  %m0, %m1, %m4 = gpu.init %m
  %stream = gpu.default_stream
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %l0, %l1, %l4 = gpu.launch @kernel grid(%c1, %c4) stream(%stream) mems(%m0, %m1, %m4)
  %done = gpu.deinit %l0, %l1, %l4
  func.return %done : !mem.M<0>
}

// -----

// The bounds guard of the last group, with the element count a constant argument: elements
// 8 and 9 of 10 are work-items 0-1 of group 2, which reduce; 2-3 do not.
func.func @kernel(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
                  %group: index, %item: index, %n: index, %x: f32)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
  %four = arith.constant 4 : index
  %base = arith.muli %group, %four : index
  %i = arith.addi %base, %item : index
  %inside = arith.cmpi ult, %i, %n : index
  %r1, %r3 = scf.if %inside -> (!mem.M<1>, !mem.M<3>) {
    // expected-error @below {{barrier divergence: in work-group 2 of the launch of @kernel at}}
    %s1, %s3, %sum = gpu.workgroup_reduce "add" %m1, %m3, %x : f32
    scf.yield %s1, %s3 : !mem.M<1>, !mem.M<3>
  } else {
    scf.yield %m1, %m3 : !mem.M<1>, !mem.M<3>
  }
  func.return %r1, %r3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}

func.func @main(%m: !mem.M<0>) -> !mem.M<0> {
  %m0, %m1, %m4 = gpu.init %m
  %stream = gpu.default_stream
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %n = arith.constant 10 : index
  %x = arith.constant 1.0 : f32
  %l0, %l1, %l4 = gpu.launch @kernel grid(%c3, %c4) stream(%stream) mems(%m0, %m1, %m4) args(%n, %x) : (index, f32)
  %done = gpu.deinit %l0, %l1, %l4
  func.return %done : !mem.M<0>
}

// -----

// A loop that work-item i runs i times: item 0 never reaches the barrier in it.
func.func @kernel(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
                  %group: index, %item: index)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r1, %r3 = scf.for %k = %c0 to %item step %c1 iter_args(%t1 = %m1, %t3 = %m3)
      -> (!mem.M<1>, !mem.M<3>) {
    // expected-error @below {{work-item(s) 1-7 reach this barrier and work-item(s) 0 do not: they part at 'scf.for'}}
    %s1, %s3 = gpu.synced_scope %t1, %t3 {
    ^bb0(%x1: !mem.M<1>, %x3: !mem.M<3>):
      gpu.yield %x1, %x3 : !mem.M<1>, !mem.M<3>
    }
    scf.yield %s1, %s3 : !mem.M<1>, !mem.M<3>
  }
  func.return %r1, %r3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}

func.func @main(%m: !mem.M<0>) -> !mem.M<0> {
  %m0, %m1, %m4 = gpu.init %m
  %stream = gpu.default_stream
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %l0, %l1, %l4 = gpu.launch @kernel grid(%c1, %c8) stream(%stream) mems(%m0, %m1, %m4)
  %done = gpu.deinit %l0, %l1, %l4
  func.return %done : !mem.M<0>
}

// -----

// Two ifs, the barrier in the inner one's else: items 1-3 pass the outer (item != 0), and of
// them 2-3 take the inner else (item >= 2, through a select and a cast to i32).
func.func @kernel(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
                  %group: index, %item: index)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : i32
  %nonzero = arith.cmpi ne, %item, %c0 : index
  %r1, %r3 = scf.if %nonzero -> (!mem.M<1>, !mem.M<3>) {
    %i = arith.index_cast %item : index to i32
    %low = arith.cmpi slt, %i, %c2 : i32
    %u1, %u3 = scf.if %low -> (!mem.M<1>, !mem.M<3>) {
      scf.yield %m1, %m3 : !mem.M<1>, !mem.M<3>
    } else {
      // expected-error @below {{work-item(s) 2-3 reach this barrier and work-item(s) 0-1 do not: they part at 'scf.if' at}}
      %s1, %s3 = gpu.sync_work_items %m1, %m3
      scf.yield %s1, %s3 : !mem.M<1>, !mem.M<3>
    }
    scf.yield %u1, %u3 : !mem.M<1>, !mem.M<3>
  } else {
    scf.yield %m1, %m3 : !mem.M<1>, !mem.M<3>
  }
  func.return %r1, %r3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}

func.func @main(%m: !mem.M<0>) -> !mem.M<0> {
  %m0, %m1, %m4 = gpu.init %m
  %stream = gpu.default_stream
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %l0, %l1, %l4 = gpu.launch @kernel grid(%c1, %c4) stream(%stream) mems(%m0, %m1, %m4)
  %done = gpu.deinit %l0, %l1, %l4
  func.return %done : !mem.M<0>
}
