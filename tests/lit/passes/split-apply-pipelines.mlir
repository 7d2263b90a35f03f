// RUN: gpu-opt %s -p split-apply | filecheck %s --check-prefix=DEFAULT
// RUN: gpu-opt %s -p 'split-apply{host-pipeline="canonicalize" device-pipeline=""}' | filecheck %s --check-prefix=HOST
// RUN: gpu-opt %s -p 'split-apply{host-pipeline="" device-pipeline="canonicalize,cse"}' | filecheck %s --check-prefix=DEVICE

// By default @host runs host-malloc-to-gpualloc (its global-memory mem.alloc/mem.free become
// gpu.alloc.block/gpu.free.block) and @device runs remove-double-syncs (the barrier at the
// kernel's entry goes). The options take any pipeline over xDSL's passes and gpuir's, and each
// runs on its own module only: here the same foldable arithmetic is on both sides.

func.func @k(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
             %group: index, %item: index, %out: !mem.ptr<i32, 1>)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
  %e1, %e3 = gpu.sync_work_items %m1, %m3
  %a = arith.constant 1 : i32
  %b = arith.constant 2 : i32
  %c = arith.addi %a, %b : i32
  %s1 = mem.store %e1, %out, %c : !mem.ptr<i32, 1>
  func.return %s1, %e3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}

func.func @main(%m: !mem.M<0>) -> (!mem.M<0>, i32) {
  %a = arith.constant 1 : i32
  %b = arith.constant 2 : i32
  %c = arith.addi %a, %b : i32
  %m0, %m1, %m4 = gpu.init %m
  %s = gpu.default_stream
  %one = arith.constant 1 : index
  %d1, %d = mem.alloc %m1 : !mem.ptr<i32, 1>
  %l0, %l1, %l4 = gpu.launch @k grid(%one, %one) stream(%s) mems(%m0, %d1, %m4) args(%d) : (!mem.ptr<i32, 1>)
  %f1 = mem.free %l1, %d : !mem.ptr<i32, 1>
  %e = gpu.deinit %l0, %f1, %l4
  func.return %e, %c : !mem.M<0>, i32
}

// DEFAULT:      builtin.module @host {
// DEFAULT-NEXT:   func.func @main(%m: !mem.M<0>) -> (!mem.M<0>, i32) {
// DEFAULT-NEXT:     %a = arith.constant 1 : i32
// DEFAULT-NEXT:     %b = arith.constant 2 : i32
// DEFAULT-NEXT:     %c = arith.addi %a, %b : i32
// DEFAULT-NEXT:     %m0, %m1, %m4 = gpu.init %m
// DEFAULT-NEXT:     %s = gpu.default_stream
// DEFAULT-NEXT:     %one = arith.constant 1 : index
// DEFAULT-NEXT:     %d1, %d = gpu.alloc.block %m1 : !mem.ptr<i32, 1>
// DEFAULT-NEXT:     %l0, %l1, %l4 = gpu.launch @device::@k grid(%one, %one) stream(%s) mems(%m0, %d1, %m4) args(%d) : (!mem.ptr<i32, 1>)
// DEFAULT-NEXT:     %f1 = gpu.free.block %l1, %d : !mem.ptr<i32, 1>
// DEFAULT-NEXT:     %e = gpu.deinit %l0, %f1, %l4
// DEFAULT-NEXT:     func.return %e, %c : !mem.M<0>, i32
// DEFAULT-NEXT:   }
// DEFAULT-NEXT: }
// DEFAULT-NEXT: builtin.module @device attributes {gpu.device} {
// DEFAULT-NEXT:   func.func @k(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>, %group: index, %item: index, %out: !mem.ptr<i32, 1>) -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) attributes {gpu.kernel} {
// DEFAULT-NEXT:     %a = arith.constant 1 : i32
// DEFAULT-NEXT:     %b = arith.constant 2 : i32
// DEFAULT-NEXT:     %c = arith.addi %a, %b : i32
// DEFAULT-NEXT:     %s1 = mem.store %m1, %out, %c : !mem.ptr<i32, 1>
// DEFAULT-NEXT:     func.return %s1, %m3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
// DEFAULT-NEXT:   }
// DEFAULT-NEXT: }

// HOST:      builtin.module @host {
// HOST-NEXT:   func.func @main(%m: !mem.M<0>) -> (!mem.M<0>, i32) {
// HOST-NEXT:     %c = arith.constant 3 : i32
// HOST-NEXT:     %m0, %m1, %m4 = gpu.init %m
// HOST-NEXT:     %s = gpu.default_stream
// HOST-NEXT:     %one = arith.constant 1 : index
// HOST-NEXT:     %d1, %d = mem.alloc %m1 : !mem.ptr<i32, 1>
// HOST-NEXT:     %l0, %l1, %l4 = gpu.launch @device::@k grid(%one, %one) stream(%s) mems(%m0, %d1, %m4) args(%d) : (!mem.ptr<i32, 1>)
// HOST-NEXT:     %f1 = mem.free %l1, %d : !mem.ptr<i32, 1>
// HOST-NEXT:     %e = gpu.deinit %l0, %f1, %l4
// HOST-NEXT:     func.return %e, %c : !mem.M<0>, i32
// HOST-NEXT:   }
// HOST-NEXT: }
// HOST-NEXT: builtin.module @device attributes {gpu.device} {
// HOST-NEXT:   func.func @k(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>, %group: index, %item: index, %out: !mem.ptr<i32, 1>) -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) attributes {gpu.kernel} {
// HOST-NEXT:     %e1, %e3 = gpu.sync_work_items %m1, %m3
// HOST-NEXT:     %a = arith.constant 1 : i32
// HOST-NEXT:     %b = arith.constant 2 : i32
// HOST-NEXT:     %c = arith.addi %a, %b : i32
// HOST-NEXT:     %s1 = mem.store %e1, %out, %c : !mem.ptr<i32, 1>

// DEVICE:      builtin.module @host {
// DEVICE-NEXT:   func.func @main(%m: !mem.M<0>) -> (!mem.M<0>, i32) {
// DEVICE-NEXT:     %a = arith.constant 1 : i32
// DEVICE-NEXT:     %b = arith.constant 2 : i32
// DEVICE-NEXT:     %c = arith.addi %a, %b : i32
// DEVICE:        builtin.module @device attributes {gpu.device} {
// DEVICE-NEXT:   func.func @k(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>, %group: index, %item: index, %out: !mem.ptr<i32, 1>) -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) attributes {gpu.kernel} {
// DEVICE-NEXT:     %e1, %e3 = gpu.sync_work_items %m1, %m3
// DEVICE-NEXT:     %c = arith.constant 3 : i32
// DEVICE-NEXT:     %s1 = mem.store %e1, %out, %c : !mem.ptr<i32, 1>
// DEVICE-NEXT:     func.return %s1, %e3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
// DEVICE-NEXT:   }
// DEVICE-NEXT: }
