// RUN: gpu-opt %s -p check-barrier-divergence --verify-diagnostics --split-input-file
// RUN: not gpu-opt %s -p check-barrier-divergence --split-input-file 2>&1 | filecheck %s

// A barrier that some work-items of a group reach and others do not, when the launch, its
// group size and the conditions on the way to the barrier are known before the run. The
// messages whole (the places in them are paths):
// CHECK:      check-barrier-divergence-invalid.mlir:24:5: error: barrier divergence: in every work-group of the launch of @kernel at {{.*}}check-barrier-divergence-invalid.mlir:37:3 (4 work-items per group), work-item(s) 0-1 reach this barrier as their barrier 1, and work-item(s) 2-3 return from the kernel after 0 barrier(s): their ways part at 'scf.if' at {{.*}}check-barrier-divergence-invalid.mlir:22:3; every work-item of a group must reach the same barriers
// CHECK:      check-barrier-divergence-invalid.mlir:55:5: error: barrier divergence: in work-group 2 of the launch of @kernel at {{.*}}check-barrier-divergence-invalid.mlir:70:3 (4 work-items per group), work-item(s) 0-1 reach this barrier as their barrier 1, and work-item(s) 2-3 return from the kernel after 0 barrier(s): their ways part at 'scf.if' at {{.*}}check-barrier-divergence-invalid.mlir:53:3; every work-item of a group must reach the same barriers
// CHECK:      check-barrier-divergence-invalid.mlir:86:5: error: barrier divergence: in every work-group of the launch of @kernel at {{.*}}check-barrier-divergence-invalid.mlir:100:3 (8 work-items per group), work-item(s) 1-7 reach this barrier as their barrier 1, and work-item(s) 0 return from the kernel after 0 barrier(s): their ways part at 'scf.for' at {{.*}}check-barrier-divergence-invalid.mlir:83:3; every work-item of a group must reach the same barriers
// CHECK:      check-barrier-divergence-invalid.mlir:122:7: error: barrier divergence: in every work-group of the launch of @kernel at {{.*}}check-barrier-divergence-invalid.mlir:137:3 (4 work-items per group), work-item(s) 2-3 reach this barrier as their barrier 1, and work-item(s) 0-1 return from the kernel after 0 barrier(s): their ways part at 'scf.if' at {{.*}}check-barrier-divergence-invalid.mlir:115:3; every work-item of a group must reach the same barriers
// CHECK:      check-barrier-divergence-invalid.mlir:155:5: error: barrier divergence: in every work-group of the launch of @kernel at {{.*}}check-barrier-divergence-invalid.mlir:166:3 (4 work-items per group), work-item(s) 1-3 reach this barrier as their barrier 2, and work-item(s) 0 return from the kernel after 1 barrier(s): their ways part at 'scf.for' at {{.*}}check-barrier-divergence-invalid.mlir:152:3; every work-item of a group must reach the same barriers
// CHECK:      check-barrier-divergence-invalid.mlir:184:3: error: barrier divergence: in every work-group of the launch of @kernel at {{.*}}check-barrier-divergence-invalid.mlir:196:3 (4 work-items per group), work-item(s) 0-2 reach this barrier as their barrier 2, and work-item(s) 3 return from the kernel after 1 barrier(s): their ways part at 'cf.cond_br' at {{.*}}check-barrier-divergence-invalid.mlir:181:3; every work-item of a group must reach the same barriers
// CHECK:      check-barrier-divergence-invalid.mlir:212:3: error: barrier divergence: in every work-group of the launch of @parity at {{.*}}check-barrier-divergence-invalid.mlir:226:3 (4 work-items per group), work-item(s) 0, 2 reach this barrier as their barrier 1, and work-item(s) 1, 3 wait at 'gpu.sync_work_items' at {{.*}}check-barrier-divergence-invalid.mlir:215:3: their ways part at 'cf.cond_br' at {{.*}}check-barrier-divergence-invalid.mlir:209:3; every work-item of a group must reach the same barriers
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
    // expected-error @below {{work-item(s) 1-7 reach this barrier as their barrier 1, and work-item(s) 0 return from the kernel after 0 barrier(s): their ways part at 'scf.for'}}
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
      // expected-error @below {{work-item(s) 2-3 reach this barrier as their barrier 1, and work-item(s) 0-1 return from the kernel after 0 barrier(s): their ways part at 'scf.if' at}}
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

// -----

// A loop whose trip count is the work-item's number plus one: all four wait at its barrier
// the first time; the second time, item 0 has returned.
func.func @kernel(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
                  %group: index, %item: index)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %trips = arith.addi %item, %c1 : index
  %r1, %r3 = scf.for %k = %c0 to %trips step %c1 iter_args(%t1 = %m1, %t3 = %m3)
      -> (!mem.M<1>, !mem.M<3>) {
    // expected-error @below {{work-item(s) 1-3 reach this barrier as their barrier 2, and work-item(s) 0 return from the kernel after 1 barrier(s): their ways part at 'scf.for'}}
    %s1, %s3 = gpu.sync_work_items %t1, %t3
    scf.yield %s1, %s3 : !mem.M<1>, !mem.M<3>
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

// cf blocks: a barrier, then the items past the element count (3) return early, and the
// others wait at a second barrier; and the two branches of a cf.cond_br on the parity of the
// item, each to a barrier of its own.
func.func @kernel(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
                  %group: index, %item: index, %n: index)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
  %a1, %a3 = gpu.sync_work_items %m1, %m3
  %out = arith.cmpi uge, %item, %n : index
  cf.cond_br %out, ^done(%a1, %a3 : !mem.M<1>, !mem.M<3>), ^work
^work:
  // expected-error @below {{work-item(s) 0-2 reach this barrier as their barrier 2, and work-item(s) 3 return from the kernel after 1 barrier(s): their ways part at 'cf.cond_br'}}
  %b1, %b3 = gpu.sync_work_items %a1, %a3
  cf.br ^done(%b1, %b3 : !mem.M<1>, !mem.M<3>)
^done(%d1: !mem.M<1>, %d3: !mem.M<3>):
  func.return %d1, %d3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}

func.func @main(%m: !mem.M<0>) -> !mem.M<0> {
  %m0, %m1, %m4 = gpu.init %m
  %stream = gpu.default_stream
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %n = arith.constant 3 : index
  %l0, %l1, %l4 = gpu.launch @kernel grid(%c1, %c4) stream(%stream) mems(%m0, %m1, %m4) args(%n) : (index)
  %done = gpu.deinit %l0, %l1, %l4
  func.return %done : !mem.M<0>
}

// -----

func.func @parity(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
                  %group: index, %item: index)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
  %c1 = arith.constant 1 : index
  %bit = arith.andi %item, %c1 : index
  %odd = arith.index_cast %bit : index to i1
  cf.cond_br %odd, ^odd, ^even
^even:
  // expected-error @below {{work-item(s) 0, 2 reach this barrier as their barrier 1, and work-item(s) 1, 3 wait at 'gpu.sync_work_items' at}}
  %e1, %e3 = gpu.sync_work_items %m1, %m3
  cf.br ^done(%e1, %e3 : !mem.M<1>, !mem.M<3>)
^odd:
  %o1, %o3 = gpu.sync_work_items %m1, %m3
  cf.br ^done(%o1, %o3 : !mem.M<1>, !mem.M<3>)
^done(%d1: !mem.M<1>, %d3: !mem.M<3>):
  func.return %d1, %d3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}

func.func @main(%m: !mem.M<0>) -> !mem.M<0> {
  %m0, %m1, %m4 = gpu.init %m
  %stream = gpu.default_stream
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %p0, %p1, %p4 = gpu.launch @parity grid(%c1, %c4) stream(%stream) mems(%m0, %m1, %m4)
  %done = gpu.deinit %p0, %p1, %p4
  func.return %done : !mem.M<0>
}
