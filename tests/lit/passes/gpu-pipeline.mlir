// RUN: gpu-opt %S/../../../examples/array.mlir -p gpu-pipeline | filecheck %s --check-prefix=ARRAY
// RUN: gpu-opt %s -p gpu-pipeline | filecheck %s
// RUN: gpu-opt %s -p 'gpu-pipeline{host-pipeline="" device-pipeline=""}' | filecheck %s --check-prefix=NOSUB
// RUN: not gpu-opt %s -p 'gpu-pipeline{device-pipeline="no-such-pass"}' 2>&1 | filecheck %s --check-prefix=BAD

// The default pipeline, MimIR's order: the map-reduce lowerings, expand-gpu-composites,
// mem-checks, buffer-lower-ptr, check-addr-spaces, check-tokens and check-barrier-divergence
// (which only read), split-apply (which runs
// host-malloc-to-gpualloc on @host and remove-double-syncs on @device).

// The array example splits; nothing else changes in it.

// ARRAY:      builtin.module {
// ARRAY-NEXT:   builtin.module @host {
// ARRAY-NEXT:     func.func @main(%m: !mem.M<0>) -> (!mem.M<0>, i32) {
// ARRAY-NEXT:       %m0, %m1, %m4 = gpu.init %m
// ARRAY-NEXT:       %h0, %host = mem.alloc %m0 : !mem.ptr<!mem.array<4 x i32>, 0>
// ARRAY-NEXT:       %d1, %dev = gpu.alloc.block %m1 : !mem.ptr<!mem.array<4 x i32>, 1>
// ARRAY-NEXT:       %stream = gpu.default_stream
// ARRAY-NEXT:       %one = arith.constant 1 : index
// ARRAY-NEXT:       %four = arith.constant 4 : index
// ARRAY-NEXT:       %l0, %l1, %l4 = gpu.launch @device::@array_kernel grid(%one, %four) stream(%stream) mems(%h0, %d1, %m4) args(%dev) : (!mem.ptr<!mem.array<4 x i32>, 1>)
// ARRAY-NEXT:       %c0, %c1 = gpu.copy_to_host.block %l0, %l1, %dev -> %host : !mem.ptr<!mem.array<4 x i32>, 1> -> !mem.ptr<!mem.array<4 x i32>, 0>
// ARRAY-NEXT:       %zero = arith.constant 0 : index
// ARRAY-NEXT:       %init = arith.constant 0 : i32
// ARRAY-NEXT:       %s0, %sum = scf.for %k = %zero to %four step %one iter_args(%tok = %c0, %acc = %init) -> (!mem.M<0>, i32) {
// ARRAY-NEXT:         %e = mem.lea %host, %k : !mem.ptr<!mem.array<4 x i32>, 0>
// ARRAY-NEXT:         %tok2, %x = mem.load %tok, %e : !mem.ptr<i32, 0>
// ARRAY-NEXT:         %acc2 = arith.addi %acc, %x : i32
// ARRAY-NEXT:         scf.yield %tok2, %acc2 : !mem.M<0>, i32
// ARRAY-NEXT:       }
// ARRAY-NEXT:       %f1 = gpu.free.block %c1, %dev : !mem.ptr<!mem.array<4 x i32>, 1>
// ARRAY-NEXT:       %f0 = mem.free %s0, %host : !mem.ptr<!mem.array<4 x i32>, 0>
// ARRAY-NEXT:       %done = gpu.deinit %f0, %f1, %l4
// ARRAY-NEXT:       func.return %done, %sum : !mem.M<0>, i32
// ARRAY-NEXT:     }
// ARRAY-NEXT:   }
// ARRAY-NEXT:   builtin.module @device attributes {gpu.device} {
// ARRAY-NEXT:     func.func @array_kernel(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>, %group: index, %item: index, %arr: !mem.ptr<!mem.array<4 x i32>, 1>) -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) attributes {gpu.kernel} {
// ARRAY-NEXT:       %elem = mem.lea %arr, %item : !mem.ptr<!mem.array<4 x i32>, 1>
// ARRAY-NEXT:       %i = arith.index_cast %item : index to i32
// ARRAY-NEXT:       %ten = arith.constant 10 : i32
// ARRAY-NEXT:       %v = arith.muli %i, %ten : i32
// ARRAY-NEXT:       %m1b = mem.store %m1, %elem, %v : !mem.ptr<i32, 1>
// ARRAY-NEXT:       func.return %m1b, %m3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
// ARRAY-NEXT:     }
// ARRAY-NEXT:   }
// ARRAY-NEXT: }

// Composites expand, then split-apply's default sub-pipelines run: the host's global-memory
// mem.free becomes gpu.free.block, and the synced scope's first barrier, at the kernel's entry,
// goes. With empty sub-pipelines (the options go to split-apply) both stay.

func.func @kernel(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
                  %group: index, %item: index, %out: !mem.ptr<i32, 1>)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
  %a1, %a3 = gpu.synced_scope %m1, %m3 {
  ^bb0(%x1: !mem.M<1>, %x3: !mem.M<3>):
    %v = arith.index_cast %item : index to i32
    %y1 = mem.store %x1, %out, %v : !mem.ptr<i32, 1>
    gpu.yield %y1, %x3 : !mem.M<1>, !mem.M<3>
  }
  func.return %a1, %a3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}

func.func @main(%m: !mem.M<0>, %x: i32) -> (!mem.M<0>, i32) {
  %a0, %host = mem.alloc %m : !mem.ptr<i32, 0>
  %b0 = mem.store %a0, %host, %x : !mem.ptr<i32, 0>
  %m0, %m1, %m4 = gpu.init %b0
  %c0, %c1, %dev = gpu.alloc_copy.block %m0, %m1, %host : !mem.ptr<i32, 0> -> !mem.ptr<i32, 1>
  %stream = gpu.default_stream
  %one = arith.constant 1 : index
  %l0, %l1, %l4 = gpu.launch @kernel grid(%one, %one) stream(%stream) mems(%c0, %c1, %m4)
      args(%dev) : (!mem.ptr<i32, 1>)
  %d0, %d1 = gpu.copy_to_host.block %l0, %l1, %dev -> %host : !mem.ptr<i32, 1> -> !mem.ptr<i32, 0>
  %f1 = mem.free %d1, %dev : !mem.ptr<i32, 1>
  %e0 = gpu.deinit %d0, %f1, %l4
  %f0, %v = mem.load %e0, %host : !mem.ptr<i32, 0>
  %done = mem.free %f0, %host : !mem.ptr<i32, 0>
  func.return %done, %v : !mem.M<0>, i32
}

// CHECK:      builtin.module {
// CHECK-NEXT:   builtin.module @host {
// CHECK-NEXT:     func.func @main(%m: !mem.M<0>, %x: i32) -> (!mem.M<0>, i32) {
// CHECK-NEXT:       %a0, %host = mem.alloc %m : !mem.ptr<i32, 0>
// CHECK-NEXT:       %b0 = mem.store %a0, %host, %x : !mem.ptr<i32, 0>
// CHECK-NEXT:       %m0, %m1, %m4 = gpu.init %b0
// CHECK-NEXT:       %0, %dev = gpu.alloc.block %m1 : !mem.ptr<i32, 1>
// CHECK-NEXT:       %c0, %c1 = gpu.copy_to_device.block %m0, %0, %host -> %dev : !mem.ptr<i32, 0> -> !mem.ptr<i32, 1>
// CHECK-NEXT:       %stream = gpu.default_stream
// CHECK-NEXT:       %one = arith.constant 1 : index
// CHECK-NEXT:       %l0, %l1, %l4 = gpu.launch @device::@kernel grid(%one, %one) stream(%stream) mems(%c0, %c1, %m4) args(%dev) : (!mem.ptr<i32, 1>)
// CHECK-NEXT:       %d0, %d1 = gpu.copy_to_host.block %l0, %l1, %dev -> %host : !mem.ptr<i32, 1> -> !mem.ptr<i32, 0>
// CHECK-NEXT:       %f1 = gpu.free.block %d1, %dev : !mem.ptr<i32, 1>
// CHECK-NEXT:       %e0 = gpu.deinit %d0, %f1, %l4
// CHECK-NEXT:       %f0, %v = mem.load %e0, %host : !mem.ptr<i32, 0>
// CHECK-NEXT:       %done = mem.free %f0, %host : !mem.ptr<i32, 0>
// CHECK-NEXT:       func.return %done, %v : !mem.M<0>, i32
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT:   builtin.module @device attributes {gpu.device} {
// CHECK-NEXT:     func.func @kernel(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>, %group: index, %item: index, %out: !mem.ptr<i32, 1>) -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) attributes {gpu.kernel} {
// CHECK-NEXT:       %v = arith.index_cast %item : index to i32
// CHECK-NEXT:       %y1 = mem.store %m1, %out, %v : !mem.ptr<i32, 1>
// CHECK-NEXT:       %a1, %a3 = gpu.sync_work_items %y1, %m3
// CHECK-NEXT:       func.return %a1, %a3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT: }

// NOSUB:      gpu.launch @device::@kernel
// NOSUB:      %f1 = mem.free %d1, %dev : !mem.ptr<i32, 1>
// NOSUB:      builtin.module @device attributes {gpu.device} {
// NOSUB-NEXT:   func.func @kernel
// NOSUB-NEXT:     %x1, %x3 = gpu.sync_work_items %m1, %m3
// NOSUB-NEXT:     %v = arith.index_cast %item : index to i32
// NOSUB-NEXT:     %y1 = mem.store %x1, %out, %v : !mem.ptr<i32, 1>
// NOSUB-NEXT:     %a1, %a3 = gpu.sync_work_items %y1, %x3

// An unknown pass in a forwarded option is split-apply's error.

// BAD: split-apply: device-pipeline="no-such-pass" names the unknown pass 'no-such-pass'
