// RUN: gpu-opt %s -p cpu-workgroup-loops --split-input-file | filecheck %s

// cpu-workgroup-loops records a work-group function's write-only pointers (positions among the
// kernel's arguments): global pointers it only stores through, by `mem.lea` chains. Their
// stores may be non-temporal (gpuir.lowering.cpu.streaming). `%w` is written only, `%y` read
// and written, `%x` read only.

builtin.module attributes {gpu.device} {
  func.func @k(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
               %group: index, %item: index, %x: !mem.ptr<!mem.array<? x f32>, 1>,
               %y: !mem.ptr<!mem.array<? x f32>, 1>, %w: !mem.ptr<!mem.array<? x f32>, 1>)
      -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) attributes {gpu.kernel} {
    %px = mem.lea %x, %item : !mem.ptr<!mem.array<? x f32>, 1>
    %py = mem.lea %y, %item : !mem.ptr<!mem.array<? x f32>, 1>
    %pw = mem.lea %w, %item : !mem.ptr<!mem.array<? x f32>, 1>
    %a, %vx = mem.load %m1, %px : !mem.ptr<f32, 1>
    %b, %vy = mem.load %a, %py : !mem.ptr<f32, 1>
    %s = arith.addf %vx, %vy : f32
    %c = mem.store %b, %py, %s : !mem.ptr<f32, 1>
    %d = mem.store %c, %pw, %s : !mem.ptr<f32, 1>
    func.return %d, %m3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
  }
}

// CHECK:      func.func @k(
// CHECK-SAME:     attributes {gpu.workgroup, gpu.shared_bytes = 0 : i64, gpu.write_only = array<i64: 2>}

// -----

// Through a chain of `mem.lea` (a row, then its element): still write-only.
builtin.module attributes {gpu.device} {
  func.func @k(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
               %group: index, %item: index,
               %out: !mem.ptr<!mem.array<? x !mem.array<4 x i32>>, 1>)
      -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) attributes {gpu.kernel} {
    %row = mem.lea %out, %group : !mem.ptr<!mem.array<? x !mem.array<4 x i32>>, 1>
    %p = mem.lea %row, %item : !mem.ptr<!mem.array<4 x i32>, 1>
    %v = arith.index_cast %item : index to i32
    %a1 = mem.store %m1, %p, %v : !mem.ptr<i32, 1>
    func.return %a1, %m3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
  }
}

// CHECK:      func.func @k(
// CHECK-SAME:     gpu.write_only = array<i64: 0>

// -----

// Not write-only: a pointer stored as a value (it escapes), one updated atomically, one
// passed to a call, and one never used. `%slots`, where the first is stored, is.
builtin.module attributes {gpu.device} {
  func.func @f(%m1: !mem.M<1>, %p: !mem.ptr<!mem.array<? x i32>, 1>) -> !mem.M<1> {
    func.return %m1 : !mem.M<1>
  }
  func.func @k(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
               %group: index, %item: index, %slots: !mem.ptr<!mem.array<? x !mem.ptr<!mem.array<? x i32>, 1>>, 1>,
               %escapes: !mem.ptr<!mem.array<? x i32>, 1>, %counts: !mem.ptr<!mem.array<? x i32>, 1>,
               %called: !mem.ptr<!mem.array<? x i32>, 1>, %unused: !mem.ptr<!mem.array<? x i32>, 1>)
      -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) attributes {gpu.kernel} {
    %ps = mem.lea %slots, %item : !mem.ptr<!mem.array<? x !mem.ptr<!mem.array<? x i32>, 1>>, 1>
    %a = mem.store %m1, %ps, %escapes : !mem.ptr<!mem.ptr<!mem.array<? x i32>, 1>, 1>
    %pc = mem.lea %counts, %group : !mem.ptr<!mem.array<? x i32>, 1>
    %one = arith.constant 1 : i32
    %b, %old = mem.atomic_rmw "add" %a, %pc, %one : !mem.ptr<i32, 1>
    %c = func.call @f(%b, %called) : (!mem.M<1>, !mem.ptr<!mem.array<? x i32>, 1>) -> !mem.M<1>
    func.return %c, %m3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
  }
}

// CHECK:      func.func @k(
// CHECK-SAME:     attributes {gpu.workgroup, gpu.shared_bytes = 0 : i64, gpu.write_only = array<i64: 0>} {
