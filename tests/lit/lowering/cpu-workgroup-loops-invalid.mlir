// RUN: gpu-opt %s -p cpu-workgroup-loops --verify-diagnostics --split-input-file

// Shared memory of a run-time size would have no offset in the group's static shared memory.
builtin.module attributes {gpu.device} {
  func.func @k(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
               %group: index, %item: index, %n: index)
      -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) attributes {gpu.kernel} {
    // expected-error @below {{'mem.mslot' in shared memory needs a constant size}}
    %a3, %p = mem.mslot %m3, %n : !mem.ptr<i32, 3>
    func.return %m1, %a3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
  }
}


// -----

// A local slot of a run-time size in a kernel with barriers: the group makes its items' slots
// at once, so the size may not depend on the work-item.
builtin.module attributes {gpu.device} {
  func.func @k(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
               %group: index, %item: index, %n: index)
      -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) attributes {gpu.kernel} {
    %size = arith.addi %n, %item : index
    // expected-error @below {{'mem.mslot' in a kernel with barriers cannot run on the cpu provider: its run-time size must be the same for every work-item of a group (computed by arith ops from the kernel's arguments and the work-group id), as the group's slots are made before its work-items run}}
    %a5, %p = mem.mslot %m5, %size : !mem.ptr<i32, 5>
    %x3 = mem.remem %m3 : !mem.M<3>
    %s1, %s3 = gpu.sync_work_items %m1, %x3
    func.return %s1, %s3, %m4, %a5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
  }
}


// -----

// The same in the resumable form (a barrier in cf blocks): a size loaded from memory may differ
// between the work-items.
builtin.module attributes {gpu.device} {
  func.func @k(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
               %group: index, %item: index, %sizes: !mem.ptr<!mem.array<? x index>, 1>)
      -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) attributes {gpu.kernel} {
    %at = mem.lea %sizes, %group : !mem.ptr<!mem.array<? x index>, 1>
    %a1, %size = mem.load %m1, %at : !mem.ptr<index, 1>
    // expected-error @below {{'mem.mslot' in a kernel with barriers cannot run on the cpu provider: its run-time size must be the same for every work-item of a group (computed by arith ops from the kernel's arguments and the work-group id), as the group's slots are made before its work-items run}}
    %a5, %p = mem.mslot %m5, %size : !mem.ptr<i32, 5>
    cf.br ^sync
  ^sync:
    %x3 = mem.remem %m3 : !mem.M<3>
    %s1, %s3 = gpu.sync_work_items %a1, %x3
    func.return %s1, %s3, %m4, %a5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
  }
}


// -----

// Static shared memory belongs to kernels.
builtin.module attributes {gpu.device} {
  func.func @scratch(%m3: !mem.M<3>) -> !mem.M<3> {
    // expected-error @below {{a shared-memory slot ('mem.slot') in @scratch, a function that kernels call, cannot run on the cpu provider: only a kernel may make static shared memory here}}
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
