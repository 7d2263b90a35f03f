// RUN: gpu-opt %s -p host-malloc-to-gpualloc --split-input-file | filecheck %s
// RUN: gpu-opt %s -p host-malloc-to-gpualloc --split-input-file --mlir-pass-statistics -o /dev/null 2>&1 | filecheck %s --check-prefix=STATS

// The statistics of the whole file: the global-memory allocations and frees of host code.
// STATS:      {{^}}HostMallocToGpuAlloc
// STATS-NEXT:   (S) 4 num-allocs-rewritten  - Number of mem.alloc ops made gpu.alloc.block
// STATS-NEXT:   (S) 5 num-frees-rewritten   - Number of mem.free ops made gpu.free.block
// STATS-NEXT:   (S) 6 num-mallocs-rewritten - Number of mem.malloc ops made gpu.alloc.block

// Host allocations of global memory become device allocations; host memory stays.

func.func @main(%m: !mem.M<0>, %n: index, %bytes: index) -> !mem.M<0> {
  %m0, %m1, %m4 = gpu.init %m
  %a1, %p = mem.alloc %m1 : !mem.ptr<f32, 1>
  %b1, %q = mem.alloc %a1, %n : !mem.ptr<!mem.array<? x i32>, 1>
  %c1, %r = mem.malloc %b1, %bytes : !mem.ptr<!mem.array<16 x f64>, 1>
  %d1 = mem.free %c1, %r : !mem.ptr<!mem.array<16 x f64>, 1>
  %e1 = mem.free %d1, %q : !mem.ptr<!mem.array<? x i32>, 1>
  %f1 = mem.free %e1, %p : !mem.ptr<f32, 1>
  %a0, %h = mem.alloc %m0, %n : !mem.ptr<!mem.array<? x i32>, 0>
  %b0, %g = mem.malloc %a0, %bytes : !mem.ptr<i8, 0>
  %c0 = mem.free %b0, %g : !mem.ptr<i8, 0>
  %d0 = mem.free %c0, %h : !mem.ptr<!mem.array<? x i32>, 0>
  %done = gpu.deinit %d0, %f1, %m4
  func.return %done : !mem.M<0>
}

// CHECK:      func.func @main(%m: !mem.M<0>, %n: index, %bytes: index) -> !mem.M<0> {
// CHECK-NEXT:   %m0, %m1, %m4 = gpu.init %m
// CHECK-NEXT:   %a1, %p = gpu.alloc.block %m1 : !mem.ptr<f32, 1>
// CHECK-NEXT:   %b1, %q = gpu.alloc.block %a1, %n : !mem.ptr<!mem.array<? x i32>, 1>
// CHECK-NEXT:   %c1, %r = gpu.alloc.block %b1 : !mem.ptr<!mem.array<16 x f64>, 1>
// CHECK-NEXT:   %d1 = gpu.free.block %c1, %r : !mem.ptr<!mem.array<16 x f64>, 1>
// CHECK-NEXT:   %e1 = gpu.free.block %d1, %q : !mem.ptr<!mem.array<? x i32>, 1>
// CHECK-NEXT:   %f1 = gpu.free.block %e1, %p : !mem.ptr<f32, 1>
// CHECK-NEXT:   %a0, %h = mem.alloc %m0, %n : !mem.ptr<!mem.array<? x i32>, 0>
// CHECK-NEXT:   %b0, %g = mem.malloc %a0, %bytes : !mem.ptr<i8, 0>
// CHECK-NEXT:   %c0 = mem.free %b0, %g : !mem.ptr<i8, 0>
// CHECK-NEXT:   %d0 = mem.free %c0, %h : !mem.ptr<!mem.array<? x i32>, 0>
// CHECK-NEXT:   %done = gpu.deinit %d0, %f1, %m4
// CHECK-NEXT:   func.return %done : !mem.M<0>
// CHECK-NEXT: }

// -----

// A malloc of a run-time array has no extent to keep: the extent is the byte size divided by the
// element's size.
func.func @sizes(%m1: !mem.M<1>, %bytes: index) -> !mem.M<1> {
  %a, %p = mem.malloc %m1, %bytes : !mem.ptr<!mem.array<? x f32>, 1>
  %b, %q = mem.malloc %a, %bytes : !mem.ptr<!mem.array<? x !mem.array<4 x f64>>, 1>
  %c, %r = mem.malloc %b, %bytes : !mem.ptr<!mem.array<? x i1>, 1>
  %d, %s = mem.malloc %c, %bytes : !mem.ptr<!mem.array<? x index>, 1>
  %e, %t = mem.malloc %d, %bytes : !mem.ptr<!mem.array<? x !mem.ptr<i32, 1>>, 1>
  func.return %e : !mem.M<1>
}

// CHECK:      func.func @sizes(%m1: !mem.M<1>, %bytes: index) -> !mem.M<1> {
// CHECK-NEXT:   [[F32:%.*]] = arith.constant 4 : index
// CHECK-NEXT:   [[N:%.*]] = arith.divui %bytes, [[F32]] : index
// CHECK-NEXT:   %a, %p = gpu.alloc.block %m1, [[N]] : !mem.ptr<!mem.array<? x f32>, 1>
// CHECK-NEXT:   [[ROW:%.*]] = arith.constant 32 : index
// CHECK-NEXT:   [[N:%.*]] = arith.divui %bytes, [[ROW]] : index
// CHECK-NEXT:   %b, %q = gpu.alloc.block %a, [[N]] : !mem.ptr<!mem.array<? x !mem.array<4 x f64>>, 1>
// CHECK-NEXT:   [[I1:%.*]] = arith.constant 1 : index
// CHECK-NEXT:   [[N:%.*]] = arith.divui %bytes, [[I1]] : index
// CHECK-NEXT:   %c, %r = gpu.alloc.block %b, [[N]] : !mem.ptr<!mem.array<? x i1>, 1>
// CHECK-NEXT:   [[INDEX:%.*]] = arith.constant 8 : index
// CHECK-NEXT:   [[N:%.*]] = arith.divui %bytes, [[INDEX]] : index
// CHECK-NEXT:   %d, %s = gpu.alloc.block %c, [[N]] : !mem.ptr<!mem.array<? x index>, 1>
// CHECK-NEXT:   [[PTR:%.*]] = arith.constant 8 : index
// CHECK-NEXT:   [[N:%.*]] = arith.divui %bytes, [[PTR]] : index
// CHECK-NEXT:   %e, %t = gpu.alloc.block %d, [[N]] : !mem.ptr<!mem.array<? x !mem.ptr<i32, 1>>, 1>
// CHECK-NEXT:   func.return %e : !mem.M<1>
// CHECK-NEXT: }

// -----

// Device code keeps its allocations: a kernel's, and a helper's that only kernels call (a
// device-side heap). A helper that both sides call stays too, until split-apply has copied it
// into @host. Host code is rewritten inside nested regions as well.
func.func @kernel(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
                  %group: index, %item: index)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
  %a, %p = mem.malloc %m1, %item : !mem.ptr<i32, 1>
  %b = func.call @device_helper(%a, %p) : (!mem.M<1>, !mem.ptr<i32, 1>) -> !mem.M<1>
  %c = func.call @shared_helper(%b) : (!mem.M<1>) -> !mem.M<1>
  func.return %c, %m3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}

func.func @device_helper(%m1: !mem.M<1>, %p: !mem.ptr<i32, 1>) -> !mem.M<1> {
  %a = mem.free %m1, %p : !mem.ptr<i32, 1>
  func.return %a : !mem.M<1>
}

func.func @shared_helper(%m1: !mem.M<1>) -> !mem.M<1> {
  %a, %p = mem.alloc %m1 : !mem.ptr<i64, 1>
  %b = mem.free %a, %p : !mem.ptr<i64, 1>
  func.return %b : !mem.M<1>
}

func.func @host_helper(%m1: !mem.M<1>, %n: index) -> !mem.M<1> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%t = %m1) -> (!mem.M<1>) {
    %a, %p = mem.alloc %t : !mem.ptr<f32, 1>
    %b = mem.free %a, %p : !mem.ptr<f32, 1>
    scf.yield %b : !mem.M<1>
  }
  %s = func.call @shared_helper(%r) : (!mem.M<1>) -> !mem.M<1>
  func.return %s : !mem.M<1>
}

func.func @main(%m: !mem.M<0>, %n: index) -> !mem.M<0> {
  %m0, %m1, %m4 = gpu.init %m
  %h1 = func.call @host_helper(%m1, %n) : (!mem.M<1>, index) -> !mem.M<1>
  %s = gpu.default_stream
  %l0, %l1, %l4 = gpu.launch @kernel grid(%n, %n) stream(%s) mems(%m0, %h1, %m4)
  %done = gpu.deinit %l0, %l1, %l4
  func.return %done : !mem.M<0>
}

// CHECK:      func.func @kernel(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>, %group: index, %item: index) -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
// CHECK-NEXT:   %a, %p = mem.malloc %m1, %item : !mem.ptr<i32, 1>
// CHECK-NEXT:   %b = func.call @device_helper(%a, %p) : (!mem.M<1>, !mem.ptr<i32, 1>) -> !mem.M<1>
// CHECK-NEXT:   %c = func.call @shared_helper(%b) : (!mem.M<1>) -> !mem.M<1>
// CHECK-NEXT:   func.return %c, %m3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
// CHECK-NEXT: }
// CHECK-NEXT: func.func @device_helper(%m1: !mem.M<1>, %p: !mem.ptr<i32, 1>) -> !mem.M<1> {
// CHECK-NEXT:   %a = mem.free %m1, %p : !mem.ptr<i32, 1>
// CHECK-NEXT:   func.return %a : !mem.M<1>
// CHECK-NEXT: }
// CHECK-NEXT: func.func @shared_helper(%m1: !mem.M<1>) -> !mem.M<1> {
// CHECK-NEXT:   %a, %p = mem.alloc %m1 : !mem.ptr<i64, 1>
// CHECK-NEXT:   %b = mem.free %a, %p : !mem.ptr<i64, 1>
// CHECK-NEXT:   func.return %b : !mem.M<1>
// CHECK-NEXT: }
// CHECK-NEXT: func.func @host_helper(%m1: !mem.M<1>, %n: index) -> !mem.M<1> {
// CHECK-NEXT:   %c0 = arith.constant 0 : index
// CHECK-NEXT:   %c1 = arith.constant 1 : index
// CHECK-NEXT:   %r = scf.for %i = %c0 to %n step %c1 iter_args(%t = %m1) -> (!mem.M<1>) {
// CHECK-NEXT:     %a, %p = gpu.alloc.block %t : !mem.ptr<f32, 1>
// CHECK-NEXT:     %b = gpu.free.block %a, %p : !mem.ptr<f32, 1>
// CHECK-NEXT:     scf.yield %b : !mem.M<1>
// CHECK-NEXT:   }
// CHECK-NEXT:   %s = func.call @shared_helper(%r) : (!mem.M<1>) -> !mem.M<1>
// CHECK-NEXT:   func.return %s : !mem.M<1>
// CHECK-NEXT: }
// CHECK-NEXT: func.func @main(%m: !mem.M<0>, %n: index) -> !mem.M<0> {
// CHECK-NEXT:   %m0, %m1, %m4 = gpu.init %m
// CHECK-NEXT:   %h1 = func.call @host_helper(%m1, %n) : (!mem.M<1>, index) -> !mem.M<1>
// CHECK-NEXT:   %s = gpu.default_stream
// CHECK-NEXT:   %l0, %l1, %l4 = gpu.launch @kernel grid(%n, %n) stream(%s) mems(%m0, %h1, %m4)
// CHECK-NEXT:   %done = gpu.deinit %l0, %l1, %l4
// CHECK-NEXT:   func.return %done : !mem.M<0>
// CHECK-NEXT: }

// -----

// After split-apply: @host is host code, @device (with gpu.device) is left alone.
builtin.module {
  builtin.module @host {
    func.func @shared_helper(%m1: !mem.M<1>) -> !mem.M<1> {
      %a, %p = mem.alloc %m1 : !mem.ptr<i64, 1>
      %b = mem.free %a, %p : !mem.ptr<i64, 1>
      func.return %b : !mem.M<1>
    }
  }
  builtin.module @device attributes {gpu.device} {
    func.func @shared_helper(%m1: !mem.M<1>) -> !mem.M<1> {
      %a, %p = mem.alloc %m1 : !mem.ptr<i64, 1>
      %b = mem.free %a, %p : !mem.ptr<i64, 1>
      func.return %b : !mem.M<1>
    }
  }
}

// CHECK:      builtin.module {
// CHECK-NEXT:   builtin.module @host {
// CHECK-NEXT:     func.func @shared_helper(%m1: !mem.M<1>) -> !mem.M<1> {
// CHECK-NEXT:       %a, %p = gpu.alloc.block %m1 : !mem.ptr<i64, 1>
// CHECK-NEXT:       %b = gpu.free.block %a, %p : !mem.ptr<i64, 1>
// CHECK-NEXT:       func.return %b : !mem.M<1>
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT:   builtin.module @device attributes {gpu.device} {
// CHECK-NEXT:     func.func @shared_helper(%m1: !mem.M<1>) -> !mem.M<1> {
// CHECK-NEXT:       %a, %p = mem.alloc %m1 : !mem.ptr<i64, 1>
// CHECK-NEXT:       %b = mem.free %a, %p : !mem.ptr<i64, 1>
// CHECK-NEXT:       func.return %b : !mem.M<1>
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT: }

// -----

// Run on a device module by itself, the pass changes nothing.
builtin.module attributes {gpu.device} {
  func.func @f(%m1: !mem.M<1>) -> !mem.M<1> {
    %a, %p = mem.alloc %m1 : !mem.ptr<i64, 1>
    %b = mem.free %a, %p : !mem.ptr<i64, 1>
    func.return %b : !mem.M<1>
  }
}

// CHECK:      builtin.module attributes {gpu.device} {
// CHECK-NEXT:   func.func @f(%m1: !mem.M<1>) -> !mem.M<1> {
// CHECK-NEXT:     %a, %p = mem.alloc %m1 : !mem.ptr<i64, 1>
// CHECK-NEXT:     %b = mem.free %a, %p : !mem.ptr<i64, 1>
// CHECK-NEXT:     func.return %b : !mem.M<1>
// CHECK-NEXT:   }
// CHECK-NEXT: }
