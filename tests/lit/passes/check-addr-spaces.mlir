// RUN: gpu-opt %s -p check-addr-spaces --split-input-file | filecheck %s
// RUN: gpu-opt %s -p check-addr-spaces --split-input-file --mlir-pass-statistics -o /dev/null 2>&1 | filecheck %s --check-prefix=STATS

// The statistics of the whole file: every heap, slot and store op is checked.
// STATS:      {{^}}CheckAddrSpaces
// STATS-NEXT:   (S) 17 num-ops-checked - Number of heap, slot and store ops checked

// check-addr-spaces only inspects: every op that is legal in its address space stays as it was.

// Heap memory exists on the host and in global memory (a device-side malloc).
func.func @heap(%m0: !mem.M<0>, %m1: !mem.M<1>, %n: index) -> (!mem.M<0>, !mem.M<1>) {
  %a0, %p0 = mem.alloc %m0 : !mem.ptr<i32, 0>
  %b0, %q0 = mem.malloc %a0, %n : !mem.ptr<!mem.array<? x f32>, 0>
  %c0 = mem.free %b0, %q0 : !mem.ptr<!mem.array<? x f32>, 0>
  %d0 = mem.free %c0, %p0 : !mem.ptr<i32, 0>
  %a1, %p1 = mem.alloc %m1, %n : !mem.ptr<!mem.array<? x i32>, 1>
  %b1, %q1 = mem.malloc %a1, %n : !mem.ptr<i8, 1>
  %c1 = mem.free %b1, %q1 : !mem.ptr<i8, 1>
  %d1 = mem.free %c1, %p1 : !mem.ptr<!mem.array<? x i32>, 1>
  func.return %d0, %d1 : !mem.M<0>, !mem.M<1>
}

// CHECK:      func.func @heap(%m0: !mem.M<0>, %m1: !mem.M<1>, %n: index) -> (!mem.M<0>, !mem.M<1>) {
// CHECK-NEXT:   %a0, %p0 = mem.alloc %m0 : !mem.ptr<i32, 0>
// CHECK-NEXT:   %b0, %q0 = mem.malloc %a0, %n : !mem.ptr<!mem.array<? x f32>, 0>
// CHECK-NEXT:   %c0 = mem.free %b0, %q0 : !mem.ptr<!mem.array<? x f32>, 0>
// CHECK-NEXT:   %d0 = mem.free %c0, %p0 : !mem.ptr<i32, 0>
// CHECK-NEXT:   %a1, %p1 = mem.alloc %m1, %n : !mem.ptr<!mem.array<? x i32>, 1>
// CHECK-NEXT:   %b1, %q1 = mem.malloc %a1, %n : !mem.ptr<i8, 1>
// CHECK-NEXT:   %c1 = mem.free %b1, %q1 : !mem.ptr<i8, 1>
// CHECK-NEXT:   %d1 = mem.free %c1, %p1 : !mem.ptr<!mem.array<? x i32>, 1>
// CHECK-NEXT:   func.return %d0, %d1 : !mem.M<0>, !mem.M<1>
// CHECK-NEXT: }

// -----

// Slots live in host, shared or local memory; stores go anywhere but const memory, and const
// memory can be read.
func.func @slots(%m0: !mem.M<0>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>, %n: index,
                 %c: !mem.ptr<f32, 4>, %v: f32)
    -> (!mem.M<0>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
  %a0, %p0 = mem.slot %m0 : !mem.ptr<f32, 0>
  %b0 = mem.store %a0, %p0, %v : !mem.ptr<f32, 0>
  %a3, %p3 = mem.slot %m3 : !mem.ptr<!mem.array<32 x f32>, 3>
  %b3, %q3 = mem.mslot %a3, %n : !mem.ptr<f32, 3>
  %c3 = mem.store %b3, %q3, %v : !mem.ptr<f32, 3>
  %a5, %p5 = mem.mslot %m5, %n : !mem.ptr<f32, 5>
  %b5 = mem.store %a5, %p5, %v : !mem.ptr<f32, 5>
  %a4, %x = mem.load %m4, %c : !mem.ptr<f32, 4>
  func.return %b0, %c3, %a4, %b5 : !mem.M<0>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}

// CHECK:      func.func @slots(%m0: !mem.M<0>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>, %n: index, %c: !mem.ptr<f32, 4>, %v: f32) -> (!mem.M<0>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
// CHECK-NEXT:   %a0, %p0 = mem.slot %m0 : !mem.ptr<f32, 0>
// CHECK-NEXT:   %b0 = mem.store %a0, %p0, %v : !mem.ptr<f32, 0>
// CHECK-NEXT:   %a3, %p3 = mem.slot %m3 : !mem.ptr<!mem.array<32 x f32>, 3>
// CHECK-NEXT:   %b3, %q3 = mem.mslot %a3, %n : !mem.ptr<f32, 3>
// CHECK-NEXT:   %c3 = mem.store %b3, %q3, %v : !mem.ptr<f32, 3>
// CHECK-NEXT:   %a5, %p5 = mem.mslot %m5, %n : !mem.ptr<f32, 5>
// CHECK-NEXT:   %b5 = mem.store %a5, %p5, %v : !mem.ptr<f32, 5>
// CHECK-NEXT:   %a4, %x = mem.load %m4, %c : !mem.ptr<f32, 4>
// CHECK-NEXT:   func.return %b0, %c3, %a4, %b5 : !mem.M<0>, !mem.M<3>, !mem.M<4>, !mem.M<5>
// CHECK-NEXT: }

// -----

// A whole program: the pass leaves it alone.
func.func @kernel(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
                  %group: index, %item: index, %out: !mem.ptr<!mem.array<4 x i32>, 1>)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
  %s3, %tile = mem.slot %m3 : !mem.ptr<!mem.array<4 x i32>, 3>
  %e = mem.lea %out, %item : !mem.ptr<!mem.array<4 x i32>, 1>
  %i = arith.index_cast %item : index to i32
  %m1b = mem.store %m1, %e, %i : !mem.ptr<i32, 1>
  func.return %m1b, %s3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}

func.func @main(%m: !mem.M<0>) -> !mem.M<0> {
  %m0, %m1, %m4 = gpu.init %m
  %d1, %dev = gpu.alloc.block %m1 : !mem.ptr<!mem.array<4 x i32>, 1>
  %s = gpu.default_stream
  %one = arith.constant 1 : index
  %l0, %l1, %l4 = gpu.launch @kernel grid(%one, %one) stream(%s) mems(%m0, %d1, %m4) args(%dev) : (!mem.ptr<!mem.array<4 x i32>, 1>)
  %f1 = gpu.free.block %l1, %dev : !mem.ptr<!mem.array<4 x i32>, 1>
  %done = gpu.deinit %l0, %f1, %l4
  func.return %done : !mem.M<0>
}

// CHECK:      func.func @kernel(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>, %group: index, %item: index, %out: !mem.ptr<!mem.array<4 x i32>, 1>) -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
// CHECK-NEXT:   %s3, %tile = mem.slot %m3 : !mem.ptr<!mem.array<4 x i32>, 3>
// CHECK-NEXT:   %e = mem.lea %out, %item : !mem.ptr<!mem.array<4 x i32>, 1>
// CHECK-NEXT:   %i = arith.index_cast %item : index to i32
// CHECK-NEXT:   %m1b = mem.store %m1, %e, %i : !mem.ptr<i32, 1>
// CHECK-NEXT:   func.return %m1b, %s3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
// CHECK-NEXT: }
// CHECK-NEXT: func.func @main(%m: !mem.M<0>) -> !mem.M<0> {
// CHECK-NEXT:   %m0, %m1, %m4 = gpu.init %m
// CHECK-NEXT:   %d1, %dev = gpu.alloc.block %m1 : !mem.ptr<!mem.array<4 x i32>, 1>
// CHECK-NEXT:   %s = gpu.default_stream
// CHECK-NEXT:   %one = arith.constant 1 : index
// CHECK-NEXT:   %l0, %l1, %l4 = gpu.launch @kernel grid(%one, %one) stream(%s) mems(%m0, %d1, %m4) args(%dev) : (!mem.ptr<!mem.array<4 x i32>, 1>)
// CHECK-NEXT:   %f1 = gpu.free.block %l1, %dev : !mem.ptr<!mem.array<4 x i32>, 1>
// CHECK-NEXT:   %done = gpu.deinit %l0, %f1, %l4
// CHECK-NEXT:   func.return %done : !mem.M<0>
// CHECK-NEXT: }
