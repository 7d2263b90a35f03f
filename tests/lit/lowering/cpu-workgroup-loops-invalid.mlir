// RUN: gpu-opt %s -p cpu-workgroup-loops --verify-diagnostics --split-input-file | filecheck %s

// A barrier that only some work-items reach cannot run as work-item loops.
builtin.module attributes {gpu.device} {
  func.func @k(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
               %group: index, %item: index)
      -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) attributes {gpu.kernel} {
    %c2 = arith.constant 2 : index
    %low = arith.cmpi ult, %item, %c2 : index
    %r1, %r3 = scf.if %low -> (!mem.M<1>, !mem.M<3>) {
      %s1, %s3 = gpu.sync_work_items %m1, %m3
      scf.yield %s1, %s3 : !mem.M<1>, !mem.M<3>
    } else {
      scf.yield %m1, %m3 : !mem.M<1>, !mem.M<3>
    }
    func.return %r1, %r3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
  }
}

// CHECK: a barrier ('gpu.sync_work_items') inside scf.if whose condition depends on the work-item id cannot run on the cpu provider (it runs the work-items of a group as loops between barriers, so every barrier must be reached by the whole group: at the kernel's top level, or inside scf.for / scf.if whose bounds / condition are the same for every work-item)

// -----

// Loop bounds loaded from memory may differ between the items, as far as the check knows.
builtin.module attributes {gpu.device} {
  func.func @k(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
               %group: index, %item: index, %n: !mem.ptr<index, 1>)
      -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) attributes {gpu.kernel} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %a1, %count = mem.load %m1, %n : !mem.ptr<index, 1>
    %r1, %r3, %r = scf.for %k = %c0 to %count step %c1 iter_args(%t1 = %a1, %t3 = %m3, %x = %c0)
        -> (!mem.M<1>, !mem.M<3>, index) {
      %s1, %s3, %y = gpu.workgroup_reduce "add" %t1, %t3, %x : index
      scf.yield %s1, %s3, %y : !mem.M<1>, !mem.M<3>, index
    }
    func.return %r1, %r3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
  }
}

// CHECK: a barrier ('gpu.workgroup_reduce') inside scf.for whose bounds depend on a value loaded from memory cannot run on the cpu provider

// -----

// A condition on a value that the loop carries, which becomes varying in its first iteration:
// the check iterates to a fixed point.
builtin.module attributes {gpu.device} {
  func.func @k(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
               %group: index, %item: index)
      -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) attributes {gpu.kernel} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %r1, %r3, %r = scf.for %k = %c0 to %c4 step %c1 iter_args(%t1 = %m1, %t3 = %m3, %x = %c0)
        -> (!mem.M<1>, !mem.M<3>, index) {
      %zero = arith.cmpi eq, %x, %c0 : index
      %u1, %u3 = scf.if %zero -> (!mem.M<1>, !mem.M<3>) {
        %s1, %s3 = gpu.sync_work_items %t1, %t3
        scf.yield %s1, %s3 : !mem.M<1>, !mem.M<3>
      } else {
        scf.yield %t1, %t3 : !mem.M<1>, !mem.M<3>
      }
      %y = arith.addi %x, %item : index
      scf.yield %u1, %u3, %y : !mem.M<1>, !mem.M<3>, index
    }
    func.return %r1, %r3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
  }
}

// CHECK: a barrier ('gpu.sync_work_items') inside scf.if whose condition depends on the work-item id cannot run on the cpu provider

// -----

// Only scf.for and scf.if may hold barriers.
builtin.module attributes {gpu.device} {
  func.func @k(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
               %group: index, %item: index)
      -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) attributes {gpu.kernel} {
    %false = arith.constant false
    %r1, %r3 = scf.while (%t1 = %m1, %t3 = %m3) : (!mem.M<1>, !mem.M<3>) -> (!mem.M<1>, !mem.M<3>) {
      %s1, %s3 = gpu.sync_work_items %t1, %t3
      scf.condition(%false) %s1, %s3 : !mem.M<1>, !mem.M<3>
    } do {
    ^bb0(%a1: !mem.M<1>, %a3: !mem.M<3>):
      scf.yield %a1, %a3 : !mem.M<1>, !mem.M<3>
    }
    func.return %r1, %r3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
  }
}

// CHECK: a barrier ('gpu.sync_work_items') inside 'scf.while' cannot run on the cpu provider

// -----

// Barriers must be in the kernel itself.
builtin.module attributes {gpu.device} {
  func.func @wait(%m1: !mem.M<1>, %m3: !mem.M<3>) -> (!mem.M<1>, !mem.M<3>) {
    %s1, %s3 = gpu.sync_work_items %m1, %m3
    func.return %s1, %s3 : !mem.M<1>, !mem.M<3>
  }
  func.func @k(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
               %group: index, %item: index)
      -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) attributes {gpu.kernel} {
    %a1, %a3 = func.call @wait(%m1, %m3) : (!mem.M<1>, !mem.M<3>) -> (!mem.M<1>, !mem.M<3>)
    func.return %a1, %a3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
  }
}

// CHECK: a barrier ('gpu.sync_work_items') in @wait, a function that kernels call, cannot run on the cpu provider: barriers must be in the kernel itself

// -----

// A barrier in a cf block other than the entry is not supported here (one in the entry block
// before cf control flow is: cpu-workgroup-loops-cf-tail.mlir).
builtin.module attributes {gpu.device} {
  func.func @k(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
               %group: index, %item: index)
      -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) attributes {gpu.kernel} {
    cf.br ^next
  ^next:
    %s1, %s3 = gpu.sync_work_items %m1, %m3
    func.return %s1, %s3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
  }
}

// CHECK: a barrier ('gpu.sync_work_items') in a cf block other than the kernel's entry block cannot run on the cpu provider

// -----

// Shared memory of a run-time size would have no offset in the group's static shared memory.
builtin.module attributes {gpu.device} {
  func.func @k(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
               %group: index, %item: index, %n: index)
      -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) attributes {gpu.kernel} {
    %a3, %p = mem.mslot %m3, %n : !mem.ptr<i32, 3>
    func.return %m1, %a3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
  }
}

// CHECK: 'mem.mslot' in shared memory needs a constant size

// -----

// A local slot of a run-time size cannot outlive a barrier per work-item.
builtin.module attributes {gpu.device} {
  func.func @k(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
               %group: index, %item: index, %n: index)
      -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) attributes {gpu.kernel} {
    %a5, %p = mem.mslot %m5, %n : !mem.ptr<i32, 5>
    %x3 = mem.remem %m3 : !mem.M<3>
    %s1, %s3 = gpu.sync_work_items %m1, %x3
    func.return %s1, %s3, %m4, %a5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
  }
}

// CHECK: 'mem.mslot' of a run-time size in a kernel with barriers cannot run on the cpu provider: each work-item's slot must outlive the barriers, so its size must be a constant

// -----

// Static shared memory belongs to kernels.
builtin.module attributes {gpu.device} {
  func.func @scratch(%m3: !mem.M<3>) -> !mem.M<3> {
    %a3, %p = mem.slot %m3 : !mem.ptr<i32, 3>
    func.return %a3 : !mem.M<3>
  }
  func.func @k(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
               %group: index, %item: index)
      -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) attributes {gpu.kernel} {
    %a3 = func.call @scratch(%m3) : (!mem.M<3>) -> !mem.M<3>
    func.return %m1, %a3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
  }
}

// CHECK: a shared-memory slot ('mem.slot') in @scratch, a function that kernels call, cannot run on the cpu provider: only a kernel may make static shared memory here
