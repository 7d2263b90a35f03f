// RUN: gpu-opt %s -p 'split-apply{host-pipeline="canonicalize" device-pipeline=""}' | filecheck %s --check-prefix=HOST
// RUN: gpu-opt %s -p 'split-apply{host-pipeline="" device-pipeline="canonicalize,cse"}' | filecheck %s --check-prefix=DEVICE

// Each sub-pipeline runs on its own module only: any pipeline text over xDSL's passes and
// gpuir's. Here the same foldable arithmetic is on both sides.

func.func @k(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
             %group: index, %item: index, %out: !mem.ptr<i32, 1>)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
  %a = arith.constant 1 : i32
  %b = arith.constant 2 : i32
  %c = arith.addi %a, %b : i32
  %s1 = mem.store %m1, %out, %c : !mem.ptr<i32, 1>
  func.return %s1, %m3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}

func.func @main(%m: !mem.M<0>) -> (!mem.M<0>, i32) {
  %a = arith.constant 1 : i32
  %b = arith.constant 2 : i32
  %c = arith.addi %a, %b : i32
  %m0, %m1, %m4 = gpu.init %m
  %s = gpu.default_stream
  %one = arith.constant 1 : index
  %d1, %d = gpu.alloc.block %m1 : !mem.ptr<i32, 1>
  %l0, %l1, %l4 = gpu.launch @k grid(%one, %one) stream(%s) mems(%m0, %d1, %m4) args(%d) : (!mem.ptr<i32, 1>)
  %f1 = gpu.free.block %l1, %d : !mem.ptr<i32, 1>
  %e = gpu.deinit %l0, %f1, %l4
  func.return %e, %c : !mem.M<0>, i32
}

// HOST:      builtin.module @host {
// HOST-NEXT:   func.func @main(%m: !mem.M<0>) -> (!mem.M<0>, i32) {
// HOST-NEXT:     %c = arith.constant 3 : i32
// HOST-NEXT:     %m0, %m1, %m4 = gpu.init %m
// HOST-NEXT:     %s = gpu.default_stream
// HOST-NEXT:     %one = arith.constant 1 : index
// HOST-NEXT:     %d1, %d = gpu.alloc.block %m1 : !mem.ptr<i32, 1>
// HOST-NEXT:     %l0, %l1, %l4 = gpu.launch @device::@k grid(%one, %one) stream(%s) mems(%m0, %d1, %m4) args(%d) : (!mem.ptr<i32, 1>)
// HOST-NEXT:     %f1 = gpu.free.block %l1, %d : !mem.ptr<i32, 1>
// HOST-NEXT:     %e = gpu.deinit %l0, %f1, %l4
// HOST-NEXT:     func.return %e, %c : !mem.M<0>, i32
// HOST-NEXT:   }
// HOST-NEXT: }
// HOST-NEXT: builtin.module @device attributes {gpu.device} {
// HOST-NEXT:   func.func @k(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>, %group: index, %item: index, %out: !mem.ptr<i32, 1>) -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) attributes {gpu.kernel} {
// HOST-NEXT:     %a = arith.constant 1 : i32
// HOST-NEXT:     %b = arith.constant 2 : i32
// HOST-NEXT:     %c = arith.addi %a, %b : i32
// HOST-NEXT:     %s1 = mem.store %m1, %out, %c : !mem.ptr<i32, 1>

// DEVICE:      builtin.module @host {
// DEVICE-NEXT:   func.func @main(%m: !mem.M<0>) -> (!mem.M<0>, i32) {
// DEVICE-NEXT:     %a = arith.constant 1 : i32
// DEVICE-NEXT:     %b = arith.constant 2 : i32
// DEVICE-NEXT:     %c = arith.addi %a, %b : i32
// DEVICE:        builtin.module @device attributes {gpu.device} {
// DEVICE-NEXT:   func.func @k(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>, %group: index, %item: index, %out: !mem.ptr<i32, 1>) -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) attributes {gpu.kernel} {
// DEVICE-NEXT:     %c = arith.constant 3 : i32
// DEVICE-NEXT:     %s1 = mem.store %m1, %out, %c : !mem.ptr<i32, 1>
// DEVICE-NEXT:     func.return %s1, %m3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
// DEVICE-NEXT:   }
// DEVICE-NEXT: }
