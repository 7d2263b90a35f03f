// Every valid example compiles with the default pipeline; the key lines of each split output.
//
// RUN: gpu-opt %S/../../../examples/simple.mlir -p gpu-pipeline | filecheck %s --check-prefix=SIMPLE
// RUN: gpu-opt %S/../../../examples/no-arguments.mlir -p gpu-pipeline | filecheck %s --check-prefix=NOARGS
// RUN: gpu-opt %S/../../../examples/two-arguments.mlir -p gpu-pipeline | filecheck %s --check-prefix=TWOARGS
// RUN: gpu-opt %S/../../../examples/dynamic-shared-memory.mlir -p gpu-pipeline | filecheck %s --check-prefix=SMEM
// RUN: gpu-opt %S/../../../examples/two-configurations.mlir -p gpu-pipeline | filecheck %s --check-prefix=CONFIGS
// RUN: gpu-opt %S/../../../examples/manual-streams.mlir -p gpu-pipeline | filecheck %s --check-prefix=MSTREAMS
// RUN: gpu-opt %S/../../../examples/scoped-streams.mlir -p gpu-pipeline | filecheck %s --check-prefix=SSTREAMS
// RUN: gpu-opt %S/../../../examples/manual-sync.mlir -p gpu-pipeline | filecheck %s --check-prefix=MSYNC
// RUN: gpu-opt %S/../../../examples/scoped-sync.mlir -p gpu-pipeline | filecheck %s --check-prefix=SSYNC
// RUN: gpu-opt %S/../../../examples/array.mlir -p gpu-pipeline | filecheck %s --check-prefix=ARRAY

// SIMPLE:      builtin.module @host {
// SIMPLE-NEXT:   func.func @main(%m: !mem.M<0>) -> !mem.M<0> {
// SIMPLE-NEXT:     %m0, %m1, %m4 = gpu.init %m
// SIMPLE-NEXT:     %stream = gpu.default_stream
// SIMPLE-NEXT:     %four = arith.constant 4 : index
// SIMPLE-NEXT:     %l0, %l1, %l4 = gpu.launch @device::@kernel grid(%four, %four) stream(%stream) mems(%m0, %m1, %m4)
// SIMPLE-NEXT:     %done = gpu.deinit %l0, %l1, %l4
// SIMPLE-NEXT:     func.return %done : !mem.M<0>
// SIMPLE-NEXT:   }
// SIMPLE-NEXT: }
// SIMPLE-NEXT: builtin.module @device attributes {gpu.device} {
// SIMPLE-NEXT:   func.func @kernel(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>, %group: index, %item: index) -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) attributes {gpu.kernel} {
// SIMPLE-NEXT:     func.return %m1, %m3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
// SIMPLE-NEXT:   }
// SIMPLE-NEXT: }

// gpu.alloc_copy.block is expanded.
// NOARGS:      builtin.module @host {
// NOARGS:        %m0, %m1, %m4 = gpu.init %b0
// NOARGS-NEXT:   %0, %dev = gpu.alloc.block %m1 : !mem.ptr<i32, 1>
// NOARGS-NEXT:   %c0, %c1 = gpu.copy_to_device.block %m0, %0, %host -> %dev : !mem.ptr<i32, 0> -> !mem.ptr<i32, 1>
// NOARGS:        gpu.launch @device::@kernel grid(%four, %four) stream(%stream) mems(%c0, %c1, %m4){{$}}
// NOARGS:      builtin.module @device attributes {gpu.device} {
// NOARGS-NEXT:   func.func @kernel({{.*}}, %group: index, %item: index) -> ({{.*}}) attributes {gpu.kernel} {

// The host's mem.alloc/mem.free in address space 1 become gpu.alloc.block/gpu.free.block.
// TWOARGS:      builtin.module @host {
// TWOARGS:        %a1, %dev1 = gpu.alloc.block %m1 : !mem.ptr<i32, 1>
// TWOARGS-NEXT:   %b1, %dev2 = gpu.alloc.block %a1 : !mem.ptr<i32, 1>
// TWOARGS:        gpu.launch @device::@kernel grid(%four, %four) stream(%stream) mems(%f0, %d1, %m4) args(%dev1, %dev2) : (!mem.ptr<i32, 1>, !mem.ptr<i32, 1>)
// TWOARGS:        %i1 = gpu.free.block %h1, %dev1 : !mem.ptr<i32, 1>
// TWOARGS-NEXT:   %j1 = gpu.free.block %i1, %dev2 : !mem.ptr<i32, 1>
// TWOARGS:      builtin.module @device attributes {gpu.device} {
// TWOARGS-NEXT:   func.func @kernel({{.*}}, %data1: !mem.ptr<i32, 1>, %data2: !mem.ptr<i32, 1>) -> ({{.*}}) attributes {gpu.kernel} {

// The barrier after the shared store stays: its shared token comes from the store.
// SMEM:      builtin.module @host {
// SMEM:        gpu.launch @device::@neighbours grid(%groups, %items) stream(%stream) smem(!mem.array<? x i32>, %items) mems(%a0, %a1, %m4) args(%items, %dev) : (index, !mem.ptr<!mem.array<8 x i32>, 1>)
// SMEM:      builtin.module @device attributes {gpu.device} {
// SMEM-NEXT:   func.func @neighbours({{.*}}, %smem: !mem.ptr<!mem.array<? x i32>, 3>, %n_items: index, %out: !mem.ptr<!mem.array<8 x i32>, 1>) -> ({{.*}}) attributes {gpu.kernel} {
// SMEM-NEXT:     %mine = mem.lea %smem, %item : !mem.ptr<!mem.array<? x i32>, 3>
// SMEM-NEXT:     %id = arith.index_cast %item : index to i32
// SMEM-NEXT:     %a3 = mem.store %m3, %mine, %id : !mem.ptr<i32, 3>
// SMEM-NEXT:     %b1, %b3 = gpu.sync_work_items %m1, %a3

// Both launches name the one kernel in @device; the host helper @sum stays on the host.
// CONFIGS:      builtin.module @host {
// CONFIGS-NEXT:   func.func @sum(
// CONFIGS:        func.func @main(
// CONFIGS:        gpu.launch @device::@group_ids grid(%c1, %c16) stream(%stream)
// CONFIGS:        gpu.launch @device::@group_ids grid(%c4, %c4) stream(%stream)
// CONFIGS:      builtin.module @device attributes {gpu.device} {
// CONFIGS-NEXT:   func.func @group_ids(
// CONFIGS-NOT:    func.func

// Streams made by hand stay as they are.
// MSTREAMS:      %e0, %slot1 = mem.alloc %m0 : !mem.ptr<!gpu.stream, 0>
// MSTREAMS-NEXT: %f0, %slot2 = mem.alloc %e0 : !mem.ptr<!gpu.stream, 0>
// MSTREAMS-NEXT: %g0, %g1 = gpu.stream_init %f0, %m1, %slot1
// MSTREAMS-NEXT: %h0, %h1 = gpu.stream_init %g0, %g1, %slot2
// MSTREAMS:      gpu.launch @device::@kernel grid(%four, %four) stream(%s1)
// MSTREAMS-NEXT: gpu.launch @device::@kernel grid(%four, %four) stream(%s2)
// MSTREAMS:      %u0, %u1 = gpu.stream_sync %q0, %t1, %s1
// MSTREAMS-NEXT: %v0, %v1 = gpu.stream_sync %u0, %u1, %s2
// MSTREAMS-NEXT: %w0, %w1 = gpu.stream_deinit %v0, %v1, %s1
// MSTREAMS-NEXT: %y0, %y1 = gpu.stream_deinit %w0, %w1, %s2

// gpu.with_streams and gpu.alloc_copy.asyn are expanded.
// SSTREAMS-NOT:  gpu.with_streams
// SSTREAMS-NOT:  gpu.alloc_copy
// SSTREAMS:      %m0, %m1, %m4 = gpu.init %d0
// SSTREAMS-NEXT: %four = arith.constant 4 : index
// SSTREAMS-NEXT: %0, %stream_slots = mem.alloc %m0 : !mem.ptr<!mem.array<2 x !gpu.stream>, 0>
// SSTREAMS-NEXT: %1 = arith.constant 0 : index
// SSTREAMS-NEXT: %2 = mem.lea %stream_slots, %1 : !mem.ptr<!mem.array<2 x !gpu.stream>, 0>
// SSTREAMS-NEXT: %3, %4 = gpu.stream_init %0, %m1, %2
// SSTREAMS-NEXT: %5 = arith.constant 1 : index
// SSTREAMS-NEXT: %6 = mem.lea %stream_slots, %5 : !mem.ptr<!mem.array<2 x !gpu.stream>, 0>
// SSTREAMS-NEXT: %7, %s1 = gpu.stream_init %3, %4, %6
// SSTREAMS-NEXT: %8, %stream1 = mem.load %7, %2 : !mem.ptr<!gpu.stream, 0>
// SSTREAMS-NEXT: %s0, %stream2 = mem.load %8, %6 : !mem.ptr<!gpu.stream, 0>
// SSTREAMS-NEXT: %9, %dev1 = gpu.alloc.asyn %s1 on %stream1 : !mem.ptr<i32, 1>
// SSTREAMS-NEXT: %f0, %f1 = gpu.copy_to_device.asyn %s0, %9, %ptr1 -> %dev1 on %stream1 : !mem.ptr<i32, 0> -> !mem.ptr<i32, 1>
// SSTREAMS:      %11, %12 = gpu.stream_deinit %k0, %n1, %stream1
// SSTREAMS-NEXT: %e0, %e1 = gpu.stream_deinit %11, %12, %stream2
// SSTREAMS-NEXT: %closed = gpu.deinit %e0, %e1, %m4

// A barrier by hand, after a shared store, stays.
// MSYNC:      builtin.module @device attributes {gpu.device} {
// MSYNC:        %b3 = mem.store %a3, %mine, %id : !mem.ptr<i32, 3>
// MSYNC-NEXT:   %c1, %c3 = gpu.sync_work_items %m1, %b3

// The barrier at the kernel's entry goes, and so does the second of the two barriers between
// the scopes; three remain.
// SSYNC:      builtin.module @device attributes {gpu.device} {
// SSYNC-NEXT:   func.func @kernel(
// SSYNC-NEXT:     %b3, %shared = mem.slot %m3 : !mem.ptr<!mem.array<4 x i32>, 3>
// SSYNC-NEXT:     %b1, %local = mem.alloc %m1 : !mem.ptr<i32, 1>
// SSYNC-NEXT:     %x1, %x3 = gpu.sync_work_items %b1, %b3
// SSYNC-NEXT:     %mine = mem.lea %shared, %item : !mem.ptr<!mem.array<4 x i32>, 3>
// SSYNC-NEXT:     %id = arith.index_cast %item : index to i32
// SSYNC-NEXT:     %y3 = mem.store %x3, %mine, %id : !mem.ptr<i32, 3>
// SSYNC-NEXT:     %c1, %c3 = gpu.sync_work_items %x1, %y3
// SSYNC-NEXT:     %three = arith.constant 3 : index
// SSYNC-NEXT:     %mirror = arith.subi %three, %item : index
// SSYNC-NEXT:     %theirs = mem.lea %shared, %mirror : !mem.ptr<!mem.array<4 x i32>, 3>
// SSYNC-NEXT:     %y3_1, %v = mem.load %c3, %theirs : !mem.ptr<i32, 3>
// SSYNC-NEXT:     %y1 = mem.store %c1, %local, %v : !mem.ptr<i32, 1>
// SSYNC-NEXT:     %d1, %d3 = gpu.sync_work_items %y1, %y3_1
// SSYNC-NEXT:     %e1, %val = mem.load %d1, %local : !mem.ptr<i32, 1>
// SSYNC-NOT:      gpu.sync_work_items

// ARRAY:      gpu.launch @device::@array_kernel grid(%one, %four)
// ARRAY:      builtin.module @device attributes {gpu.device} {
// ARRAY-NEXT:   func.func @array_kernel(
