// RUN: gpu-opt %s -p remove-double-syncs --split-input-file | filecheck %s
// RUN: gpu-opt %s -p remove-double-syncs --split-input-file --mlir-pass-statistics -o /dev/null 2>&1 | filecheck %s --check-prefix=STATS

// The statistics of the whole file: the 9 barriers removed below (20 before, 11 after).
// STATS:      {{^}}RemoveDoubleSyncs
// STATS-NEXT:   (S) 9 num-barriers-removed - Number of redundant barriers removed

// Barriers at a kernel's entry order nothing, nor do barriers right after a barrier; a barrier
// after a memory access stays. Chains collapse: the two at the entry go, and of the three after
// the store only the first stays.
func.func @k(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
             %group: index, %item: index)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
  %a1, %a3 = gpu.sync_work_items %m1, %m3
  %b1, %b3 = gpu.sync_work_items %a1, %a3
  %s3, %tile = mem.slot %b3 : !mem.ptr<!mem.array<4 x i32>, 3>
  %e = mem.lea %tile, %item : !mem.ptr<!mem.array<4 x i32>, 3>
  %i = arith.index_cast %item : index to i32
  %c3 = mem.store %s3, %e, %i : !mem.ptr<i32, 3>
  %d1, %d3 = gpu.sync_work_items %b1, %c3
  %e1, %e3 = gpu.sync_work_items %d1, %d3
  %f1, %f3 = gpu.sync_work_items %e1, %e3
  %g3, %v = mem.load %f3, %e : !mem.ptr<i32, 3>
  func.return %f1, %g3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}

func.func @main(%m: !mem.M<0>) -> !mem.M<0> {
  %m0, %m1, %m4 = gpu.init %m
  %s = gpu.default_stream
  %one = arith.constant 1 : index
  %l0, %l1, %l4 = gpu.launch @k grid(%one, %one) stream(%s) mems(%m0, %m1, %m4)
  %done = gpu.deinit %l0, %l1, %l4
  func.return %done : !mem.M<0>
}

// CHECK:      func.func @k(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>, %group: index, %item: index) -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
// CHECK-NEXT:   %s3, %tile = mem.slot %m3 : !mem.ptr<!mem.array<4 x i32>, 3>
// CHECK-NEXT:   %e = mem.lea %tile, %item : !mem.ptr<!mem.array<4 x i32>, 3>
// CHECK-NEXT:   %i = arith.index_cast %item : index to i32
// CHECK-NEXT:   %c3 = mem.store %s3, %e, %i : !mem.ptr<i32, 3>
// CHECK-NEXT:   %d1, %d3 = gpu.sync_work_items %m1, %c3
// CHECK-NEXT:   %g3, %v = mem.load %d3, %e : !mem.ptr<i32, 3>
// CHECK-NEXT:   func.return %d1, %g3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
// CHECK-NEXT: }
// CHECK-NEXT: func.func @main(%m: !mem.M<0>) -> !mem.M<0> {
// CHECK-NEXT:   %m0, %m1, %m4 = gpu.init %m
// CHECK-NEXT:   %s = gpu.default_stream
// CHECK-NEXT:   %one = arith.constant 1 : index
// CHECK-NEXT:   %l0, %l1, %l4 = gpu.launch @k grid(%one, %one) stream(%s) mems(%m0, %m1, %m4)
// CHECK-NEXT:   %done = gpu.deinit %l0, %l1, %l4
// CHECK-NEXT:   func.return %done : !mem.M<0>
// CHECK-NEXT: }

// -----

// Both tokens must come from the same place: one from a barrier and one from a store, or one
// from the entry and one from a barrier, is not enough.
func.func @k(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
             %group: index, %item: index, %p: !mem.ptr<i32, 1>, %x: i32)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) attributes {gpu.kernel} {
  %a1 = mem.store %m1, %p, %x : !mem.ptr<i32, 1>
  %b1, %b3 = gpu.sync_work_items %a1, %m3
  %c1 = mem.store %b1, %p, %x : !mem.ptr<i32, 1>
  %d1, %d3 = gpu.sync_work_items %c1, %b3
  %e1, %e3 = gpu.sync_work_items %m1, %d3
  func.return %e1, %e3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}

// CHECK:      func.func @k(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>, %group: index, %item: index, %p: !mem.ptr<i32, 1>, %x: i32) -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) attributes {gpu.kernel} {
// CHECK-NEXT:   %a1 = mem.store %m1, %p, %x : !mem.ptr<i32, 1>
// CHECK-NEXT:   %b1, %b3 = gpu.sync_work_items %a1, %m3
// CHECK-NEXT:   %c1 = mem.store %b1, %p, %x : !mem.ptr<i32, 1>
// CHECK-NEXT:   %d1, %d3 = gpu.sync_work_items %c1, %b3
// CHECK-NEXT:   %e1, %e3 = gpu.sync_work_items %m1, %d3
// CHECK-NEXT:   func.return %e1, %e3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
// CHECK-NEXT: }

// -----

// A function that is not a kernel keeps the barrier at its entry: its caller may just have
// written shared memory. A barrier right after it still goes.
func.func @helper(%m1: !mem.M<1>, %m3: !mem.M<3>) -> (!mem.M<1>, !mem.M<3>) {
  %a1, %a3 = gpu.sync_work_items %m1, %m3
  %b1, %b3 = gpu.sync_work_items %a1, %a3
  func.return %b1, %b3 : !mem.M<1>, !mem.M<3>
}

// CHECK:      func.func @helper(%m1: !mem.M<1>, %m3: !mem.M<3>) -> (!mem.M<1>, !mem.M<3>) {
// CHECK-NEXT:   %a1, %a3 = gpu.sync_work_items %m1, %m3
// CHECK-NEXT:   func.return %a1, %a3 : !mem.M<1>, !mem.M<3>
// CHECK-NEXT: }

// -----

// In a loop the tokens are the body's arguments, which carry the previous iteration's accesses:
// the barrier there stays, and so does the one on the loop's results. A barrier in an scf.if
// whose tokens come straight from the barrier before it orders nothing and goes.
func.func @k(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
             %group: index, %item: index, %p: !mem.ptr<i32, 3>, %x: i32, %c: i1)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) attributes {gpu.kernel} {
  %0 = mem.store %m3, %p, %x : !mem.ptr<i32, 3>
  %a1, %a3 = gpu.sync_work_items %m1, %0
  %lo = arith.constant 0 : index
  %hi = arith.constant 4 : index
  %step = arith.constant 1 : index
  %r1, %r3 = scf.for %i = %lo to %hi step %step iter_args(%t1 = %a1, %t3 = %a3) -> (!mem.M<1>, !mem.M<3>) {
    %s1, %s3 = gpu.sync_work_items %t1, %t3
    %w3 = mem.store %s3, %p, %x : !mem.ptr<i32, 3>
    scf.yield %s1, %w3 : !mem.M<1>, !mem.M<3>
  }
  %b1, %b3 = gpu.sync_work_items %r1, %r3
  %i1, %i3 = scf.if %c -> (!mem.M<1>, !mem.M<3>) {
    %u1, %u3 = gpu.sync_work_items %b1, %b3
    scf.yield %u1, %u3 : !mem.M<1>, !mem.M<3>
  } else {
    scf.yield %b1, %b3 : !mem.M<1>, !mem.M<3>
  }
  %z1, %z3 = gpu.sync_work_items %i1, %i3
  func.return %z1, %z3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}

// CHECK:      func.func @k(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>, %group: index, %item: index, %p: !mem.ptr<i32, 3>, %x: i32, %c: i1) -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) attributes {gpu.kernel} {
// CHECK-NEXT:   %0 = mem.store %m3, %p, %x : !mem.ptr<i32, 3>
// CHECK-NEXT:   %a1, %a3 = gpu.sync_work_items %m1, %0
// CHECK-NEXT:   %lo = arith.constant 0 : index
// CHECK-NEXT:   %hi = arith.constant 4 : index
// CHECK-NEXT:   %step = arith.constant 1 : index
// CHECK-NEXT:   %r1, %r3 = scf.for %i = %lo to %hi step %step iter_args(%t1 = %a1, %t3 = %a3) -> (!mem.M<1>, !mem.M<3>) {
// CHECK-NEXT:     %s1, %s3 = gpu.sync_work_items %t1, %t3
// CHECK-NEXT:     %w3 = mem.store %s3, %p, %x : !mem.ptr<i32, 3>
// CHECK-NEXT:     scf.yield %s1, %w3 : !mem.M<1>, !mem.M<3>
// CHECK-NEXT:   }
// CHECK-NEXT:   %b1, %b3 = gpu.sync_work_items %r1, %r3
// CHECK-NEXT:   %i1, %i3 = scf.if %c -> (!mem.M<1>, !mem.M<3>) {
// CHECK-NEXT:     scf.yield %b1, %b3 : !mem.M<1>, !mem.M<3>
// CHECK-NEXT:   } else {
// CHECK-NEXT:     scf.yield %b1, %b3 : !mem.M<1>, !mem.M<3>
// CHECK-NEXT:   }
// CHECK-NEXT:   %z1, %z3 = gpu.sync_work_items %i1, %i3
// CHECK-NEXT:   func.return %z1, %z3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
// CHECK-NEXT: }

// -----

// After split-apply: kernels carry gpu.kernel, or are found through the launches in @host; a
// device helper without the attribute is no kernel.
builtin.module {
  builtin.module @host {
    func.func @main(%m: !mem.M<0>) -> !mem.M<0> {
      %m0, %m1, %m4 = gpu.init %m
      %s = gpu.default_stream
      %one = arith.constant 1 : index
      %l0, %l1, %l4 = gpu.launch @device::@launched grid(%one, %one) stream(%s) mems(%m0, %m1, %m4)
      %done = gpu.deinit %l0, %l1, %l4
      func.return %done : !mem.M<0>
    }
  }
  builtin.module @device attributes {gpu.device} {
    func.func @marked(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>, %group: index, %item: index) -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) attributes {gpu.kernel} {
      %a1, %a3 = gpu.sync_work_items %m1, %m3
      %b1, %b3 = func.call @helper(%a1, %a3) : (!mem.M<1>, !mem.M<3>) -> (!mem.M<1>, !mem.M<3>)
      func.return %b1, %b3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
    }
    func.func @launched(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>, %group: index, %item: index) -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
      %a1, %a3 = gpu.sync_work_items %m1, %m3
      func.return %a1, %a3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
    }
    func.func @helper(%m1: !mem.M<1>, %m3: !mem.M<3>) -> (!mem.M<1>, !mem.M<3>) {
      %a1, %a3 = gpu.sync_work_items %m1, %m3
      func.return %a1, %a3 : !mem.M<1>, !mem.M<3>
    }
  }
}

// CHECK:      builtin.module {
// CHECK-NEXT:   builtin.module @host {
// CHECK-NEXT:     func.func @main(%m: !mem.M<0>) -> !mem.M<0> {
// CHECK-NEXT:       %m0, %m1, %m4 = gpu.init %m
// CHECK-NEXT:       %s = gpu.default_stream
// CHECK-NEXT:       %one = arith.constant 1 : index
// CHECK-NEXT:       %l0, %l1, %l4 = gpu.launch @device::@launched grid(%one, %one) stream(%s) mems(%m0, %m1, %m4)
// CHECK-NEXT:       %done = gpu.deinit %l0, %l1, %l4
// CHECK-NEXT:       func.return %done : !mem.M<0>
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT:   builtin.module @device attributes {gpu.device} {
// CHECK-NEXT:     func.func @marked(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>, %group: index, %item: index) -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) attributes {gpu.kernel} {
// CHECK-NEXT:       %b1, %b3 = func.call @helper(%m1, %m3) : (!mem.M<1>, !mem.M<3>) -> (!mem.M<1>, !mem.M<3>)
// CHECK-NEXT:       func.return %b1, %b3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
// CHECK-NEXT:     }
// CHECK-NEXT:     func.func @launched(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>, %group: index, %item: index) -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
// CHECK-NEXT:       func.return %m1, %m3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
// CHECK-NEXT:     }
// CHECK-NEXT:     func.func @helper(%m1: !mem.M<1>, %m3: !mem.M<3>) -> (!mem.M<1>, !mem.M<3>) {
// CHECK-NEXT:       %a1, %a3 = gpu.sync_work_items %m1, %m3
// CHECK-NEXT:       func.return %a1, %a3 : !mem.M<1>, !mem.M<3>
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT: }

// -----

// Run on the device module by itself (as split-apply does), the gpu.kernel marks find the kernels.
builtin.module @device attributes {gpu.device} {
  func.func @k(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>, %group: index, %item: index) -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) attributes {gpu.kernel} {
    %a1, %a3 = gpu.sync_work_items %m1, %m3
    %b1, %b3 = func.call @helper(%a1, %a3) : (!mem.M<1>, !mem.M<3>) -> (!mem.M<1>, !mem.M<3>)
    func.return %b1, %b3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
  }
  func.func @helper(%m1: !mem.M<1>, %m3: !mem.M<3>) -> (!mem.M<1>, !mem.M<3>) {
    %a1, %a3 = gpu.sync_work_items %m1, %m3
    func.return %a1, %a3 : !mem.M<1>, !mem.M<3>
  }
}

// CHECK:      builtin.module @device attributes {gpu.device} {
// CHECK-NEXT:   func.func @k(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>, %group: index, %item: index) -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) attributes {gpu.kernel} {
// CHECK-NEXT:     %b1, %b3 = func.call @helper(%m1, %m3) : (!mem.M<1>, !mem.M<3>) -> (!mem.M<1>, !mem.M<3>)
// CHECK-NEXT:     func.return %b1, %b3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func @helper(%m1: !mem.M<1>, %m3: !mem.M<3>) -> (!mem.M<1>, !mem.M<3>) {
// CHECK-NEXT:     %a1, %a3 = gpu.sync_work_items %m1, %m3
// CHECK-NEXT:     func.return %a1, %a3 : !mem.M<1>, !mem.M<3>
// CHECK-NEXT:   }
// CHECK-NEXT: }
