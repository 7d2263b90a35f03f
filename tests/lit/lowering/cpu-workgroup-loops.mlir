// RUN: gpu-opt %s -p cpu-workgroup-loops --split-input-file | filecheck %s
// RUN: gpu-opt %s -p cpu-workgroup-loops --split-input-file --mlir-pass-statistics -o /dev/null 2>&1 | filecheck %s --check-prefix=STATS

// The statistics of the whole file: the seven kernels below, all with item loops.
// STATS:      {{^}}CpuWorkgroupLoops
// STATS-NEXT:   (S) 7 num-item-loop-kernels - Number of kernels made work-group functions with item loops
// STATS-NEXT:   (S) 0 num-resumable-kernels - Number of kernels made resumable work-group functions

// A kernel without barriers is one loop over its work-items. What does not depend on the item
// (the shared slot, an offset into the group's static shared memory %shared, and the group id
// cast) is computed once per group, before the loop.
builtin.module attributes {gpu.device} {
  func.func @k(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
               %group: index, %item: index, %out: !mem.ptr<!mem.array<? x i32>, 1>)
      -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) attributes {gpu.kernel} {
    %a3, %sh = mem.slot %m3 : !mem.ptr<!mem.array<4 x i32>, 3>
    %p = mem.lea %out, %item : !mem.ptr<!mem.array<? x i32>, 1>
    %v = arith.index_cast %group : index to i32
    %a1 = mem.store %m1, %p, %v : !mem.ptr<i32, 1>
    func.return %a1, %a3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
  }
}

// CHECK:      builtin.module attributes {gpu.device} {
// CHECK-NEXT:   func.func @k(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>, %group_id: index, %n_items: index, %shared: !mem.ptr<!mem.array<? x i8>, 3>, %smem: !mem.ptr<!mem.array<? x i8>, 3>, %out: !mem.ptr<!mem.array<? x i32>, 1>) -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) attributes {gpu.workgroup, gpu.shared_bytes = 16 : i64, gpu.write_only = array<i64: 0>} {
// CHECK-NEXT:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:     %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT:     %[[OFFSET:.*]] = arith.constant 0 : index
// CHECK-NEXT:     %[[BYTE:.*]] = mem.lea %shared, %[[OFFSET]] : !mem.ptr<!mem.array<? x i8>, 3>
// CHECK-NEXT:     %sh = builtin.unrealized_conversion_cast %[[BYTE]] : !mem.ptr<i8, 3> to !mem.ptr<!mem.array<4 x i32>, 3>
// CHECK-NEXT:     %v = arith.index_cast %group_id : index to i32
// CHECK-NEXT:     scf.for %item = %[[C0]] to %n_items step %[[C1]] {
// CHECK-NEXT:       %p = mem.lea %out, %item : !mem.ptr<!mem.array<? x i32>, 1>
// CHECK-NEXT:       %a1 = mem.store %m1, %p, %v : !mem.ptr<i32, 1>
// CHECK-NEXT:     }
// CHECK-NEXT:     func.return %m1, %m3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
// CHECK-NEXT:   }
// CHECK-NEXT: }
// -----

// A barrier splits the kernel into two item loops. The shared array is an offset into %shared
// and, like the constants, is computed once per group; the value loaded before the barrier and
// used after it is kept per work-item in an array of n_items values (space 5); the tokens that
// cross the barrier become the function's own.
builtin.module attributes {gpu.device} {
  func.func @k(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
               %group: index, %item: index, %smem: !mem.ptr<!mem.array<? x f32>, 3>,
               %in: !mem.ptr<!mem.array<? x f32>, 1>)
      -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) attributes {gpu.kernel} {
    %a3, %sh = mem.slot %m3 : !mem.ptr<!mem.array<4 x i32>, 3>
    %p = mem.lea %in, %item : !mem.ptr<!mem.array<? x f32>, 1>
    %a1, %x = mem.load %m1, %p : !mem.ptr<f32, 1>
    %q = mem.lea %smem, %item : !mem.ptr<!mem.array<? x f32>, 3>
    %b3 = mem.store %a3, %q, %x : !mem.ptr<f32, 3>
    %s1, %s3 = gpu.sync_work_items %a1, %b3
    %one = arith.constant 1 : index
    %id = arith.index_cast %item : index to i32
    %r = mem.lea %sh, %one : !mem.ptr<!mem.array<4 x i32>, 3>
    %c3 = mem.store %s3, %r, %id : !mem.ptr<i32, 3>
    %d1 = mem.store %s1, %p, %x : !mem.ptr<f32, 1>
    func.return %d1, %c3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
  }
}

// CHECK:      func.func @k(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>, %group_id: index, %n_items: index, %shared: !mem.ptr<!mem.array<? x i8>, 3>, %smem: !mem.ptr<!mem.array<? x f32>, 3>, %in: !mem.ptr<!mem.array<? x f32>, 1>) -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) attributes {gpu.workgroup, gpu.shared_bytes = 16 : i64} {
// CHECK-NEXT:   %[[SIZE:.*]] = arith.constant 4 : index
// CHECK-NEXT:   %[[BYTES:.*]] = arith.muli %n_items, %[[SIZE]] : index
// CHECK-NEXT:   %{{.*}}, %[[XS:.*]] = mem.mslot %m5, %[[BYTES]] : !mem.ptr<!mem.array<? x f32>, 5>
// CHECK-NEXT:   %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:   %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT:   %[[OFFSET:.*]] = arith.constant 0 : index
// CHECK-NEXT:   %[[BYTE:.*]] = mem.lea %shared, %[[OFFSET]] : !mem.ptr<!mem.array<? x i8>, 3>
// CHECK-NEXT:   %sh = builtin.unrealized_conversion_cast %[[BYTE]] : !mem.ptr<i8, 3> to !mem.ptr<!mem.array<4 x i32>, 3>
// CHECK-NEXT:   scf.for %item = %[[C0]] to %n_items step %[[C1]] {
// CHECK-NEXT:     %p = mem.lea %in, %item : !mem.ptr<!mem.array<? x f32>, 1>
// CHECK-NEXT:     %a1, %x = mem.load %m1, %p : !mem.ptr<f32, 1>
// CHECK-NEXT:     %[[KEEP:.*]] = mem.lea %[[XS]], %item : !mem.ptr<!mem.array<? x f32>, 5>
// CHECK-NEXT:     %{{.*}} = mem.store %m5, %[[KEEP]], %x : !mem.ptr<f32, 5>
// CHECK-NEXT:     %q = mem.lea %smem, %item : !mem.ptr<!mem.array<? x f32>, 3>
// CHECK-NEXT:     %b3 = mem.store %m3, %q, %x : !mem.ptr<f32, 3>
// CHECK-NEXT:   }
// CHECK-NEXT:   %one = arith.constant 1 : index
// CHECK-NEXT:   %r = mem.lea %sh, %one : !mem.ptr<!mem.array<4 x i32>, 3>
// CHECK-NEXT:   scf.for %[[ITEM:.*]] = %[[C0]] to %n_items step %[[C1]] {
// CHECK-NEXT:     %[[P:.*]] = mem.lea %in, %[[ITEM]] : !mem.ptr<!mem.array<? x f32>, 1>
// CHECK-NEXT:     %[[AT:.*]] = mem.lea %[[XS]], %[[ITEM]] : !mem.ptr<!mem.array<? x f32>, 5>
// CHECK-NEXT:     %{{.*}}, %[[X:.*]] = mem.load %m5, %[[AT]] : !mem.ptr<f32, 5>
// CHECK-NEXT:     %id = arith.index_cast %[[ITEM]] : index to i32
// CHECK-NEXT:     %c3 = mem.store %m3, %r, %id : !mem.ptr<i32, 3>
// CHECK-NEXT:     %d1 = mem.store %m1, %[[P]], %[[X]] : !mem.ptr<f32, 1>
// CHECK-NEXT:   }
// CHECK-NEXT:   func.return %m1, %m3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
// CHECK-NEXT: }

// -----

// A reduction over the items' values: the values are kept per item, and a helper combines them
// in the fixed tree (split in halves until a range's size is a power of two, whose tree is
// reduced level by level in a scratch array); its result is the group's (computed once).
builtin.module attributes {gpu.device} {
  func.func @k(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
               %group: index, %item: index, %out: !mem.ptr<!mem.array<? x i32>, 1>)
      -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) attributes {gpu.kernel} {
    %v = arith.index_cast %item : index to i32
    %a1, %a3, %sum = gpu.workgroup_reduce "add" %m1, %m3, %v : i32
    %p = mem.lea %out, %group : !mem.ptr<!mem.array<? x i32>, 1>
    %b1 = mem.store %a1, %p, %sum : !mem.ptr<i32, 1>
    func.return %b1, %a3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
  }
}

// CHECK:      func.func @k(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>, %group_id: index, %n_items: index, %shared: !mem.ptr<!mem.array<? x i8>, 3>, %smem: !mem.ptr<!mem.array<? x i8>, 3>, %out: !mem.ptr<!mem.array<? x i32>, 1>) -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) attributes {gpu.workgroup, gpu.shared_bytes = 0 : i64, gpu.write_only = array<i64: 0>} {
// CHECK:        %{{.*}}, %[[VS:.*]] = mem.mslot %m5, %{{.*}} : !mem.ptr<!mem.array<? x i32>, 5>
// CHECK:        %{{.*}}, %[[SCRATCH:.*]] = mem.mslot %m5, %{{.*}} : !mem.ptr<!mem.array<? x i32>, 5>
// CHECK-NEXT:   %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:   %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT:   scf.for %item = %[[C0]] to %n_items step %[[C1]] {
// CHECK-NEXT:     %v = arith.index_cast %item : index to i32
// CHECK-NEXT:     %[[AT:.*]] = mem.lea %[[VS]], %item : !mem.ptr<!mem.array<? x i32>, 5>
// CHECK-NEXT:     %{{.*}} = mem.store %m5, %[[AT]], %v : !mem.ptr<i32, 5>
// CHECK-NEXT:   }
// CHECK-NEXT:   %[[SUM:.*]] = func.call @__gpuir_workgroup_reduce_add_i32(%m5, %[[VS]], %[[C0]], %n_items, %[[SCRATCH]]) : (!mem.M<5>, !mem.ptr<!mem.array<? x i32>, 5>, index, index, !mem.ptr<!mem.array<? x i32>, 5>) -> i32
// CHECK-NEXT:   %p = mem.lea %out, %group_id : !mem.ptr<!mem.array<? x i32>, 1>
// CHECK-NEXT:   scf.for %{{.*}} = %[[C0]] to %n_items step %[[C1]] {
// CHECK-NEXT:     %b1 = mem.store %m1, %p, %[[SUM]] : !mem.ptr<i32, 1>
// CHECK-NEXT:   }
// CHECK:      func.func @__gpuir_workgroup_reduce_add_i32(%[[M5:.*]]: !mem.M<5>, %[[A:.*]]: !mem.ptr<!mem.array<? x i32>, 5>, %[[LO:.*]]: index, %[[HI:.*]]: index, %[[S:.*]]: !mem.ptr<!mem.array<? x i32>, 5>) -> i32 {
// CHECK:          %[[N:.*]] = arith.subi %[[HI]], %[[LO]] : index
// CHECK-NEXT:     %[[N1:.*]] = arith.subi %[[N]], %{{.*}} : index
// CHECK-NEXT:     %[[LOW:.*]] = arith.andi %[[N]], %[[N1]] : index
// CHECK-NEXT:     %[[POW2:.*]] = arith.cmpi eq, %[[LOW]], %{{.*}} : index
// CHECK-NEXT:     %{{.*}} = scf.if %[[POW2]] -> (i32) {
// CHECK:            %[[HALF:.*]] = arith.shrui %[[N]], %{{.*}} : index
// CHECK-NEXT:       scf.for %[[I:.*]] = %{{.*}} to %[[HALF]] step %{{.*}} {
// CHECK:              %{{.*}} = arith.addi %{{.*}}, %{{.*}} : i32
// CHECK-NEXT:         %[[AT:.*]] = mem.lea %[[S]], %[[I]] : !mem.ptr<!mem.array<? x i32>, 5>
// CHECK:            %{{.*}} = mem.lea %[[S]], %{{.*}} : !mem.ptr<!mem.array<? x i32>, 5>
// CHECK:          } else {
// CHECK-NEXT:       %[[T:.*]] = arith.addi %[[LO]], %[[HI]] : index
// CHECK-NEXT:       %[[MID:.*]] = arith.shrui %[[T]], %{{.*}} : index
// CHECK-NEXT:       %[[L:.*]] = func.call @__gpuir_workgroup_reduce_add_i32(%[[M5]], %[[A]], %[[LO]], %[[MID]], %[[S]])
// CHECK-NEXT:       %[[R:.*]] = func.call @__gpuir_workgroup_reduce_add_i32(%[[M5]], %[[A]], %[[MID]], %[[HI]], %[[S]])
// CHECK-NEXT:       %[[SUM:.*]] = arith.addi %[[L]], %[[R]] : i32
// CHECK-NEXT:       scf.yield %[[SUM]] : i32

// -----

// A barrier inside an scf.for with uniform bounds: the loop runs once per group, the item loops
// inside it. Its carried value varies between the items, so it lives in an array: filled from the
// initial values before the loop, and copied from the yielded ones (kept in their own array, as
// they cross the barrier) at the end of each iteration.
builtin.module attributes {gpu.device} {
  func.func @k(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
               %group: index, %item: index, %n: index, %out: !mem.ptr<!mem.array<? x index>, 1>)
      -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) attributes {gpu.kernel} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %r1, %r3, %acc = scf.for %k = %c0 to %n step %c1 iter_args(%t1 = %m1, %t3 = %m3, %a = %item)
        -> (!mem.M<1>, !mem.M<3>, index) {
      %b = arith.addi %a, %k : index
      %s1, %s3 = gpu.sync_work_items %t1, %t3
      scf.yield %s1, %s3, %b : !mem.M<1>, !mem.M<3>, index
    }
    %p = mem.lea %out, %item : !mem.ptr<!mem.array<? x index>, 1>
    %b1 = mem.store %r1, %p, %acc : !mem.ptr<index, 1>
    func.return %b1, %r3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
  }
}

// CHECK:      func.func @k(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>, %group_id: index, %n_items: index, %shared: !mem.ptr<!mem.array<? x i8>, 3>, %smem: !mem.ptr<!mem.array<? x i8>, 3>, %n: index, %out: !mem.ptr<!mem.array<? x index>, 1>) -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) attributes {gpu.workgroup, gpu.shared_bytes = 0 : i64, gpu.write_only = array<i64: 1>} {
// CHECK:        %{{.*}}, %[[BS:.*]] = mem.mslot %m5, %{{.*}} : !mem.ptr<!mem.array<? x index>, 5>
// CHECK:        %{{.*}}, %[[AS:.*]] = mem.mslot %m5, %{{.*}} : !mem.ptr<!mem.array<? x index>, 5>
// CHECK-NEXT:   %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:   %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT:   %c0 = arith.constant 0 : index
// CHECK-NEXT:   %c1 = arith.constant 1 : index
// CHECK-NEXT:   scf.for %item = %[[C0]] to %n_items step %[[C1]] {
// CHECK-NEXT:     %[[INIT:.*]] = mem.lea %[[AS]], %item : !mem.ptr<!mem.array<? x index>, 5>
// CHECK-NEXT:     %{{.*}} = mem.store %m5, %[[INIT]], %item : !mem.ptr<index, 5>
// CHECK-NEXT:   }
// CHECK-NEXT:   scf.for %k = %c0 to %n step %c1 {
// CHECK-NEXT:     scf.for %[[I1:.*]] = %[[C0]] to %n_items step %[[C1]] {
// CHECK-NEXT:       %[[AT:.*]] = mem.lea %[[AS]], %[[I1]] : !mem.ptr<!mem.array<? x index>, 5>
// CHECK-NEXT:       %{{.*}}, %[[A:.*]] = mem.load %m5, %[[AT]] : !mem.ptr<index, 5>
// CHECK-NEXT:       %b = arith.addi %[[A]], %k : index
// CHECK-NEXT:       %[[BT:.*]] = mem.lea %[[BS]], %[[I1]] : !mem.ptr<!mem.array<? x index>, 5>
// CHECK-NEXT:       %{{.*}} = mem.store %m5, %[[BT]], %b : !mem.ptr<index, 5>
// CHECK-NEXT:     }
// CHECK-NEXT:     scf.for %[[I2:.*]] = %[[C0]] to %n_items step %[[C1]] {
// CHECK-NEXT:       %[[BT:.*]] = mem.lea %[[BS]], %[[I2]] : !mem.ptr<!mem.array<? x index>, 5>
// CHECK-NEXT:       %{{.*}}, %[[B:.*]] = mem.load %m5, %[[BT]] : !mem.ptr<index, 5>
// CHECK-NEXT:       %[[AT:.*]] = mem.lea %[[AS]], %[[I2]] : !mem.ptr<!mem.array<? x index>, 5>
// CHECK-NEXT:       %{{.*}} = mem.store %m5, %[[AT]], %[[B]] : !mem.ptr<index, 5>
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT:   scf.for %[[I3:.*]] = %[[C0]] to %n_items step %[[C1]] {
// CHECK-NEXT:     %[[AT:.*]] = mem.lea %[[AS]], %[[I3]] : !mem.ptr<!mem.array<? x index>, 5>
// CHECK-NEXT:     %{{.*}}, %[[ACC:.*]] = mem.load %m5, %[[AT]] : !mem.ptr<index, 5>
// CHECK-NEXT:     %p = mem.lea %out, %[[I3]] : !mem.ptr<!mem.array<? x index>, 1>
// CHECK-NEXT:     %b1 = mem.store %m1, %p, %[[ACC]] : !mem.ptr<index, 1>
// CHECK-NEXT:   }
// CHECK-NEXT:   func.return %m1, %m3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
// CHECK-NEXT: }

// -----

// A kernel with unstructured control flow (and no barrier) keeps its body as @k.item, which
// takes the group's static shared memory as its last parameter (its shared slot is an offset
// into it); the work-group function @k calls it once per work-item.
builtin.module attributes {gpu.device} {
  func.func @k(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
               %group: index, %item: index, %out: !mem.ptr<!mem.array<? x i32>, 1>)
      -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) attributes {gpu.kernel} {
    %a3, %sh = mem.slot %m3 : !mem.ptr<!mem.array<4 x i32>, 3>
    cf.br ^store
  ^store:
    %p = mem.lea %out, %item : !mem.ptr<!mem.array<? x i32>, 1>
    %v = arith.index_cast %group : index to i32
    %a1 = mem.store %m1, %p, %v : !mem.ptr<i32, 1>
    func.return %a1, %a3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
  }
}

// CHECK:      builtin.module attributes {gpu.device} {
// CHECK-NEXT:   func.func @k.item(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>, %group: index, %item: index, %out: !mem.ptr<!mem.array<? x i32>, 1>, %[[SH:.*]]: !mem.ptr<!mem.array<? x i8>, 3>) -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
// CHECK-NEXT:     %[[ZERO:.*]] = arith.constant 0 : index
// CHECK-NEXT:     %[[BYTE:.*]] = mem.lea %[[SH]], %[[ZERO]] : !mem.ptr<!mem.array<? x i8>, 3>
// CHECK-NEXT:     %sh = builtin.unrealized_conversion_cast %[[BYTE]] : !mem.ptr<i8, 3> to !mem.ptr<!mem.array<4 x i32>, 3>
// CHECK-NEXT:     cf.br ^[[BB:.*]]
// CHECK:          func.return %a1, %m3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func @k(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>, %group_id: index, %n_items: index, %shared: !mem.ptr<!mem.array<? x i8>, 3>, %smem: !mem.ptr<!mem.array<? x i8>, 3>, %out: !mem.ptr<!mem.array<? x i32>, 1>) -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) attributes {gpu.workgroup, gpu.shared_bytes = 16 : i64} {
// CHECK-NEXT:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:     %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT:     scf.for %item_id = %[[C0]] to %n_items step %[[C1]] {
// CHECK-NEXT:       %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} = func.call @k.item(%m1, %m3, %m4, %m5, %group_id, %item_id, %out, %shared) : (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>, index, index, !mem.ptr<!mem.array<? x i32>, 1>, !mem.ptr<!mem.array<? x i8>, 3>) -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>)
// CHECK-NEXT:     }
// CHECK-NEXT:     func.return %m1, %m3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
// CHECK-NEXT:   }
// CHECK-NEXT: }

// -----

// The bounds check of a grid-stride kernel, `if (group * n_items + item < n)`, becomes the item
// loop's bound: the loop runs over the items [0, clamp(n - group * n_items, 0, n_items)), with
// no test per item (so that it vectorizes without masks), unless base + item would wrap around
// for some item (then the test stays).
builtin.module attributes {gpu.device} {
  func.func @k(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
               %group: index, %item: index, %size: index, %n: index,
               %y: !mem.ptr<!mem.array<? x f32>, 1>)
      -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) attributes {gpu.kernel} {
    %base = arith.muli %group, %size : index
    %i = arith.addi %base, %item : index
    %inside = arith.cmpi ult, %i, %n : index
    %r1 = scf.if %inside -> (!mem.M<1>) {
      %p = mem.lea %y, %i : !mem.ptr<!mem.array<? x f32>, 1>
      %a1, %v = mem.load %m1, %p : !mem.ptr<f32, 1>
      %w = arith.addf %v, %v : f32
      %b1 = mem.store %a1, %p, %w : !mem.ptr<f32, 1>
      scf.yield %b1 : !mem.M<1>
    } else {
      scf.yield %m1 : !mem.M<1>
    }
    func.return %r1, %m3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
  }
}

// CHECK:      func.func @k(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>, %group_id: index, %n_items: index, %shared: !mem.ptr<!mem.array<? x i8>, 3>, %smem: !mem.ptr<!mem.array<? x i8>, 3>, %size: index, %n: index, %y: !mem.ptr<!mem.array<? x f32>, 1>) -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) attributes {gpu.workgroup, gpu.shared_bytes = 0 : i64} {
// CHECK-NEXT:   %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:   %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT:   %base = arith.muli %group_id, %size : index
// CHECK-NEXT:   %[[LAST:.*]] = arith.subi %n_items, %[[C1]] : index
// CHECK-NEXT:   %[[ABOVE:.*]] = arith.cmpi ugt, %n, %base : index
// CHECK-NEXT:   %[[LEFT:.*]] = arith.subi %n, %base : index
// CHECK-NEXT:   %[[CAPPED:.*]] = arith.minui %[[LEFT]], %n_items : index
// CHECK-NEXT:   %[[LIMIT:.*]] = arith.select %[[ABOVE]], %[[CAPPED]], %[[C0]] : index
// CHECK-NEXT:   %[[TOP:.*]] = arith.constant -1 : index
// CHECK-NEXT:   %[[HIGHEST:.*]] = arith.subi %[[TOP]], %[[LAST]] : index
// CHECK-NEXT:   %[[FITS:.*]] = arith.cmpi ule, %base, %[[HIGHEST]] : index
// CHECK-NEXT:   scf.if %[[FITS]] {
// CHECK-NEXT:     scf.for %item = %[[C0]] to %[[LIMIT]] step %[[C1]] {
// CHECK-NEXT:       %i = arith.addi %base, %item : index
// CHECK-NEXT:       %p = mem.lea %y, %i : !mem.ptr<!mem.array<? x f32>, 1>
// CHECK-NEXT:       %a1, %v = mem.load %m1, %p : !mem.ptr<f32, 1>
// CHECK-NEXT:       %w = arith.addf %v, %v : f32
// CHECK-NEXT:       %b1 = mem.store %a1, %p, %w : !mem.ptr<f32, 1>
// CHECK-NEXT:     }
// CHECK-NEXT:   } else {
// CHECK-NEXT:     scf.for %[[ITEM:.*]] = %[[C0]] to %n_items step %[[C1]] {
// CHECK-NEXT:       %[[I:.*]] = arith.addi %base, %[[ITEM]] : index
// CHECK-NEXT:       %[[INSIDE:.*]] = arith.cmpi ult, %[[I]], %n : index
// CHECK-NEXT:       %{{.*}} = scf.if %[[INSIDE]] -> (!mem.M<1>) {
// CHECK:        }
// CHECK:        func.return %m1, %m3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
// CHECK-NEXT: }

// -----

// A loop with uniform bounds that carries a per-item value (an accumulator) runs at group level,
// as if it held a barrier: each iteration is an item loop, which vectorizes across the items.
// The accumulator lives in an array of n_items values; the loop body writes the next value back
// into it.
builtin.module attributes {gpu.device} {
  func.func @k(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
               %group: index, %item: index, %count: index, %x: !mem.ptr<!mem.array<? x f32>, 1>)
      -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) attributes {gpu.kernel} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %zero = arith.constant 0.0 : f32
    %a1, %sum = scf.for %k = %c0 to %count step %c1 iter_args(%t1 = %m1, %s = %zero)
        -> (!mem.M<1>, f32) {
      %j = arith.muli %k, %count : index
      %i = arith.addi %j, %item : index
      %p = mem.lea %x, %i : !mem.ptr<!mem.array<? x f32>, 1>
      %u1, %v = mem.load %t1, %p : !mem.ptr<f32, 1>
      %s2 = arith.addf %s, %v : f32
      scf.yield %u1, %s2 : !mem.M<1>, f32
    }
    %p = mem.lea %x, %item : !mem.ptr<!mem.array<? x f32>, 1>
    %b1 = mem.store %a1, %p, %sum : !mem.ptr<f32, 1>
    func.return %b1, %m3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
  }
}

// CHECK:      func.func @k(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>, %group_id: index, %n_items: index, %shared: !mem.ptr<!mem.array<? x i8>, 3>, %smem: !mem.ptr<!mem.array<? x i8>, 3>, %count: index, %x: !mem.ptr<!mem.array<? x f32>, 1>) -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) attributes {gpu.workgroup, gpu.shared_bytes = 0 : i64} {
// CHECK:        %{{.*}}, %[[SUMS:.*]] = mem.mslot %m5, %{{.*}} : !mem.ptr<!mem.array<? x f32>, 5>
// CHECK:        %zero = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:   scf.for %item = %{{.*}} to %n_items step %{{.*}} {
// CHECK-NEXT:     %[[AT:.*]] = mem.lea %[[SUMS]], %item : !mem.ptr<!mem.array<? x f32>, 5>
// CHECK-NEXT:     %{{.*}} = mem.store %m5, %[[AT]], %zero : !mem.ptr<f32, 5>
// CHECK-NEXT:   }
// CHECK-NEXT:   scf.for %k = %c0 to %count step %c1 {
// CHECK-NEXT:     %j = arith.muli %k, %count : index
// CHECK-NEXT:     scf.for %[[ITEM:.*]] = %{{.*}} to %n_items step %{{.*}} {
// CHECK-NEXT:       %[[AT:.*]] = mem.lea %[[SUMS]], %[[ITEM]] : !mem.ptr<!mem.array<? x f32>, 5>
// CHECK-NEXT:       %{{.*}}, %[[S:.*]] = mem.load %m5, %[[AT]] : !mem.ptr<f32, 5>
// CHECK-NEXT:       %i = arith.addi %j, %[[ITEM]] : index
// CHECK-NEXT:       %p = mem.lea %x, %i : !mem.ptr<!mem.array<? x f32>, 1>
// CHECK-NEXT:       %u1, %v = mem.load %m1, %p : !mem.ptr<f32, 1>
// CHECK-NEXT:       %s2 = arith.addf %[[S]], %v : f32
// CHECK-NEXT:       %[[BACK:.*]] = mem.lea %[[SUMS]], %[[ITEM]] : !mem.ptr<!mem.array<? x f32>, 5>
// CHECK-NEXT:       %{{.*}} = mem.store %m5, %[[BACK]], %s2 : !mem.ptr<f32, 5>
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT:   scf.for %[[ITEM:.*]] = %{{.*}} to %n_items step %{{.*}} {
// CHECK-NEXT:     %[[AT:.*]] = mem.lea %[[SUMS]], %[[ITEM]] : !mem.ptr<!mem.array<? x f32>, 5>
// CHECK-NEXT:     %{{.*}}, %[[SUM:.*]] = mem.load %m5, %[[AT]] : !mem.ptr<f32, 5>
// CHECK-NEXT:     %[[P:.*]] = mem.lea %x, %[[ITEM]] : !mem.ptr<!mem.array<? x f32>, 1>
// CHECK-NEXT:     %b1 = mem.store %m1, %[[P]], %[[SUM]] : !mem.ptr<f32, 1>
// CHECK-NEXT:   }
