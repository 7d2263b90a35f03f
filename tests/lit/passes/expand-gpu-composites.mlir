// RUN: gpu-opt %s -p expand-gpu-composites --split-input-file | filecheck %s
// RUN: gpu-opt %s -p expand-gpu-composites --split-input-file --mlir-pass-statistics -o /dev/null 2>&1 | filecheck %s --check-prefix=STATS

// The statistics of the whole file: each composite below, by kind.
// STATS:      {{^}}ExpandGpuComposites
// STATS-NEXT:   (S) 2 num-alloc-copy-asyn-expanded  - Number of gpu.alloc_copy.asyn ops expanded
// STATS-NEXT:   (S) 1 num-alloc-copy-block-expanded - Number of gpu.alloc_copy.block ops expanded
// STATS-NEXT:   (S) 2 num-synced-scopes-expanded    - Number of gpu.synced_scope ops expanded
// STATS-NEXT:   (S) 3 num-with-streams-expanded     - Number of gpu.with_streams ops expanded

// gpu.alloc_copy.block is an allocation, then a blocking copy of the host data.

func.func @alloc_copy_block(%m0: !mem.M<0>, %m1: !mem.M<1>, %h: !mem.ptr<!mem.array<4 x f32>, 0>)
    -> (!mem.M<0>, !mem.M<1>, !mem.ptr<!mem.array<4 x f32>, 1>) {
  %a0, %a1, %d = gpu.alloc_copy.block %m0, %m1, %h
      : !mem.ptr<!mem.array<4 x f32>, 0> -> !mem.ptr<!mem.array<4 x f32>, 1>
  func.return %a0, %a1, %d : !mem.M<0>, !mem.M<1>, !mem.ptr<!mem.array<4 x f32>, 1>
}

// CHECK:      func.func @alloc_copy_block(%m0: !mem.M<0>, %m1: !mem.M<1>, %h: !mem.ptr<!mem.array<4 x f32>, 0>) -> (!mem.M<0>, !mem.M<1>, !mem.ptr<!mem.array<4 x f32>, 1>) {
// CHECK-NEXT:   %0, %d = gpu.alloc.block %m1 : !mem.ptr<!mem.array<4 x f32>, 1>
// CHECK-NEXT:   %a0, %a1 = gpu.copy_to_device.block %m0, %0, %h -> %d : !mem.ptr<!mem.array<4 x f32>, 0> -> !mem.ptr<!mem.array<4 x f32>, 1>
// CHECK-NEXT:   func.return %a0, %a1, %d : !mem.M<0>, !mem.M<1>, !mem.ptr<!mem.array<4 x f32>, 1>
// CHECK-NEXT: }

// -----

// gpu.alloc_copy.asyn allocates and copies on the stream it is given.

func.func @alloc_copy_asyn(%m0: !mem.M<0>, %m1: !mem.M<1>, %h: !mem.ptr<i64, 0>, %s: !gpu.stream)
    -> (!mem.M<0>, !mem.M<1>, !mem.ptr<i64, 1>) {
  %a0, %a1, %d = gpu.alloc_copy.asyn %m0, %m1, %h on %s : !mem.ptr<i64, 0> -> !mem.ptr<i64, 1>
  func.return %a0, %a1, %d : !mem.M<0>, !mem.M<1>, !mem.ptr<i64, 1>
}

// CHECK:      func.func @alloc_copy_asyn(%m0: !mem.M<0>, %m1: !mem.M<1>, %h: !mem.ptr<i64, 0>, %s: !gpu.stream) -> (!mem.M<0>, !mem.M<1>, !mem.ptr<i64, 1>) {
// CHECK-NEXT:   %0, %d = gpu.alloc.asyn %m1 on %s : !mem.ptr<i64, 1>
// CHECK-NEXT:   %a0, %a1 = gpu.copy_to_device.asyn %m0, %0, %h -> %d on %s : !mem.ptr<i64, 0> -> !mem.ptr<i64, 1>
// CHECK-NEXT:   func.return %a0, %a1, %d : !mem.M<0>, !mem.M<1>, !mem.ptr<i64, 1>
// CHECK-NEXT: }

// -----

// gpu.with_streams: a host array of stream slots (never freed), each slot initialised, each
// stream loaded, the region inlined, then each stream deinitialised, with no sync.

func.func @with_streams(%m0: !mem.M<0>, %m1: !mem.M<1>, %h: !mem.ptr<i32, 0>)
    -> (!mem.M<0>, !mem.M<1>) {
  %r0, %r1 = gpu.with_streams %m0, %m1 count 2 {
  ^bb0(%x0: !mem.M<0>, %x1: !mem.M<1>, %s0: !gpu.stream, %s1: !gpu.stream):
    %y1, %d = gpu.alloc.asyn %x1 on %s1 : !mem.ptr<i32, 1>
    %z0, %z1 = gpu.copy_to_device.asyn %x0, %y1, %h -> %d on %s1 : !mem.ptr<i32, 0> -> !mem.ptr<i32, 1>
    %f1 = gpu.free.asyn %z1, %d on %s0 : !mem.ptr<i32, 1>
    gpu.yield %z0, %f1 : !mem.M<0>, !mem.M<1>
  }
  func.return %r0, %r1 : !mem.M<0>, !mem.M<1>
}

// CHECK:      func.func @with_streams(%m0: !mem.M<0>, %m1: !mem.M<1>, %h: !mem.ptr<i32, 0>) -> (!mem.M<0>, !mem.M<1>) {
// CHECK-NEXT:   %0, %stream_slots = mem.alloc %m0 : !mem.ptr<!mem.array<2 x !gpu.stream>, 0>
// CHECK-NEXT:   %1 = arith.constant 0 : index
// CHECK-NEXT:   %2 = mem.lea %stream_slots, %1 : !mem.ptr<!mem.array<2 x !gpu.stream>, 0>
// CHECK-NEXT:   %3, %4 = gpu.stream_init %0, %m1, %2
// CHECK-NEXT:   %5 = arith.constant 1 : index
// CHECK-NEXT:   %6 = mem.lea %stream_slots, %5 : !mem.ptr<!mem.array<2 x !gpu.stream>, 0>
// CHECK-NEXT:   %7, %x1 = gpu.stream_init %3, %4, %6
// CHECK-NEXT:   %8, %s0 = mem.load %7, %2 : !mem.ptr<!gpu.stream, 0>
// CHECK-NEXT:   %x0, %s1 = mem.load %8, %6 : !mem.ptr<!gpu.stream, 0>
// CHECK-NEXT:   %y1, %d = gpu.alloc.asyn %x1 on %s1 : !mem.ptr<i32, 1>
// CHECK-NEXT:   %z0, %z1 = gpu.copy_to_device.asyn %x0, %y1, %h -> %d on %s1 : !mem.ptr<i32, 0> -> !mem.ptr<i32, 1>
// CHECK-NEXT:   %f1 = gpu.free.asyn %z1, %d on %s0 : !mem.ptr<i32, 1>
// CHECK-NEXT:   %9, %10 = gpu.stream_deinit %z0, %f1, %s0
// CHECK-NEXT:   %r0, %r1 = gpu.stream_deinit %9, %10, %s1
// CHECK-NEXT:   func.return %r0, %r1 : !mem.M<0>, !mem.M<1>
// CHECK-NEXT: }

// -----

// With no streams, only the (empty) slot array remains around the region.

func.func @no_streams(%m0: !mem.M<0>, %m1: !mem.M<1>) -> (!mem.M<0>, !mem.M<1>) {
  %r0, %r1 = gpu.with_streams %m0, %m1 count 0 {
  ^bb0(%x0: !mem.M<0>, %x1: !mem.M<1>):
    gpu.yield %x0, %x1 : !mem.M<0>, !mem.M<1>
  }
  func.return %r0, %r1 : !mem.M<0>, !mem.M<1>
}

// CHECK:      func.func @no_streams(%m0: !mem.M<0>, %m1: !mem.M<1>) -> (!mem.M<0>, !mem.M<1>) {
// CHECK-NEXT:   %x0, %stream_slots = mem.alloc %m0 : !mem.ptr<!mem.array<0 x !gpu.stream>, 0>
// CHECK-NEXT:   func.return %x0, %m1 : !mem.M<0>, !mem.M<1>
// CHECK-NEXT: }

// -----

// Composites nested in other regions expand too: a gpu.with_streams in an scf.for, holding an
// alloc_copy.

func.func @in_loop(%m0: !mem.M<0>, %m1: !mem.M<1>, %h: !mem.ptr<i32, 0>, %n: index)
    -> (!mem.M<0>, !mem.M<1>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r0, %r1 = scf.for %i = %c0 to %n step %c1 iter_args(%a0 = %m0, %a1 = %m1) -> (!mem.M<0>, !mem.M<1>) {
    %b0, %b1 = gpu.with_streams %a0, %a1 count 1 {
    ^bb0(%x0: !mem.M<0>, %x1: !mem.M<1>, %s: !gpu.stream):
      %y0, %y1, %d = gpu.alloc_copy.asyn %x0, %x1, %h on %s : !mem.ptr<i32, 0> -> !mem.ptr<i32, 1>
      %f1 = gpu.free.asyn %y1, %d on %s : !mem.ptr<i32, 1>
      gpu.yield %y0, %f1 : !mem.M<0>, !mem.M<1>
    }
    scf.yield %b0, %b1 : !mem.M<0>, !mem.M<1>
  }
  func.return %r0, %r1 : !mem.M<0>, !mem.M<1>
}

// CHECK:      func.func @in_loop(%m0: !mem.M<0>, %m1: !mem.M<1>, %h: !mem.ptr<i32, 0>, %n: index) -> (!mem.M<0>, !mem.M<1>) {
// CHECK-NEXT:   %c0 = arith.constant 0 : index
// CHECK-NEXT:   %c1 = arith.constant 1 : index
// CHECK-NEXT:   %r0, %r1 = scf.for %i = %c0 to %n step %c1 iter_args(%a0 = %m0, %a1 = %m1) -> (!mem.M<0>, !mem.M<1>) {
// CHECK-NEXT:     %0, %stream_slots = mem.alloc %a0 : !mem.ptr<!mem.array<1 x !gpu.stream>, 0>
// CHECK-NEXT:     %1 = arith.constant 0 : index
// CHECK-NEXT:     %2 = mem.lea %stream_slots, %1 : !mem.ptr<!mem.array<1 x !gpu.stream>, 0>
// CHECK-NEXT:     %3, %x1 = gpu.stream_init %0, %a1, %2
// CHECK-NEXT:     %x0, %s = mem.load %3, %2 : !mem.ptr<!gpu.stream, 0>
// CHECK-NEXT:     %4, %d = gpu.alloc.asyn %x1 on %s : !mem.ptr<i32, 1>
// CHECK-NEXT:     %y0, %y1 = gpu.copy_to_device.asyn %x0, %4, %h -> %d on %s : !mem.ptr<i32, 0> -> !mem.ptr<i32, 1>
// CHECK-NEXT:     %f1 = gpu.free.asyn %y1, %d on %s : !mem.ptr<i32, 1>
// CHECK-NEXT:     %b0, %b1 = gpu.stream_deinit %y0, %f1, %s
// CHECK-NEXT:     scf.yield %b0, %b1 : !mem.M<0>, !mem.M<1>
// CHECK-NEXT:   }
// CHECK-NEXT:   func.return %r0, %r1 : !mem.M<0>, !mem.M<1>
// CHECK-NEXT: }

// -----

// gpu.synced_scope is a barrier, the region, a barrier; a scope nested in a scope expands too.

func.func @synced(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
                  %group: index, %item: index, %smem: !mem.ptr<!mem.array<4 x i32>, 3>)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
  %a1, %a3 = gpu.synced_scope %m1, %m3 {
  ^bb0(%x1: !mem.M<1>, %x3: !mem.M<3>):
    %p = mem.lea %smem, %item : !mem.ptr<!mem.array<4 x i32>, 3>
    %v = arith.index_cast %item : index to i32
    %y3 = mem.store %x3, %p, %v : !mem.ptr<i32, 3>
    %b1, %b3 = gpu.synced_scope %x1, %y3 {
    ^bb0(%z1: !mem.M<1>, %z3: !mem.M<3>):
      gpu.yield %z1, %z3 : !mem.M<1>, !mem.M<3>
    }
    gpu.yield %b1, %b3 : !mem.M<1>, !mem.M<3>
  }
  func.return %a1, %a3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}

// CHECK:      func.func @synced(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>, %group: index, %item: index, %smem: !mem.ptr<!mem.array<4 x i32>, 3>) -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
// CHECK-NEXT:   %x1, %x3 = gpu.sync_work_items %m1, %m3
// CHECK-NEXT:   %p = mem.lea %smem, %item : !mem.ptr<!mem.array<4 x i32>, 3>
// CHECK-NEXT:   %v = arith.index_cast %item : index to i32
// CHECK-NEXT:   %y3 = mem.store %x3, %p, %v : !mem.ptr<i32, 3>
// CHECK-NEXT:   %z1, %z3 = gpu.sync_work_items %x1, %y3
// CHECK-NEXT:   %b1, %b3 = gpu.sync_work_items %z1, %z3
// CHECK-NEXT:   %a1, %a3 = gpu.sync_work_items %b1, %b3
// CHECK-NEXT:   func.return %a1, %a3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
// CHECK-NEXT: }

// -----

// Code without composites is left as it is.

func.func @plain(%m0: !mem.M<0>, %m1: !mem.M<1>, %h: !mem.ptr<i32, 0>) -> (!mem.M<0>, !mem.M<1>) {
  %a1, %d = gpu.alloc.block %m1 : !mem.ptr<i32, 1>
  %b0, %b1 = gpu.copy_to_device.block %m0, %a1, %h -> %d : !mem.ptr<i32, 0> -> !mem.ptr<i32, 1>
  %c1 = gpu.free.block %b1, %d : !mem.ptr<i32, 1>
  func.return %b0, %c1 : !mem.M<0>, !mem.M<1>
}

// CHECK:      func.func @plain(%m0: !mem.M<0>, %m1: !mem.M<1>, %h: !mem.ptr<i32, 0>) -> (!mem.M<0>, !mem.M<1>) {
// CHECK-NEXT:   %a1, %d = gpu.alloc.block %m1 : !mem.ptr<i32, 1>
// CHECK-NEXT:   %b0, %b1 = gpu.copy_to_device.block %m0, %a1, %h -> %d : !mem.ptr<i32, 0> -> !mem.ptr<i32, 1>
// CHECK-NEXT:   %c1 = gpu.free.block %b1, %d : !mem.ptr<i32, 1>
// CHECK-NEXT:   func.return %b0, %c1 : !mem.M<0>, !mem.M<1>
// CHECK-NEXT: }
