// split-apply on a module that is split already (exactly @host, then @device {gpu.device})
// runs its sub-pipelines on the two modules and splits nothing: twice is the same as once, and
// the output of gpu-pipeline runs under gpu-run as the program does.
// RUN: gpu-opt %s -p split-apply | filecheck %s
// RUN: gpu-opt %s -p split-apply,split-apply | filecheck %s
// RUN: gpu-opt %s -p split-apply | gpu-opt -p split-apply | filecheck %s
// RUN: gpu-opt %s -p gpu-pipeline | gpu-opt -p gpu-pipeline | gpu-run - --provider cpu | filecheck %s --check-prefix=RUN-OUT
// RUN: gpu-opt %s -p gpu-pipeline | gpu-run - --provider interp | filecheck %s --check-prefix=RUN-OUT

// CHECK:      builtin.module {
// CHECK-NEXT:   builtin.module @host {
// CHECK-NEXT:     func.func @main(%m: !mem.M<0>) -> (!mem.M<0>, i32) {
// CHECK:            gpu.launch @device::@k
// CHECK:        builtin.module @device attributes {gpu.device} {
// CHECK-NEXT:     func.func @k(
// CHECK-NOT:    builtin.module @host
// RUN-OUT:    42

func.func @k(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
             %group: index, %item: index, %p: !mem.ptr<i32, 1>)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
  %v = arith.constant 42 : i32
  %t = mem.store %m1, %p, %v : !mem.ptr<i32, 1>
  func.return %t, %m3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}

func.func @main(%m: !mem.M<0>) -> (!mem.M<0>, i32) {
  %m0, %m1, %m4 = gpu.init %m
  %h0, %h = mem.alloc %m0 : !mem.ptr<i32, 0>
  %d1, %d = gpu.alloc.block %m1 : !mem.ptr<i32, 1>
  %s = gpu.default_stream
  %one = arith.constant 1 : index
  %l0, %l1, %l4 = gpu.launch @k grid(%one, %one) stream(%s) mems(%h0, %d1, %m4)
      args(%d) : (!mem.ptr<i32, 1>)
  %c0, %c1 = gpu.copy_to_host.block %l0, %l1, %d -> %h : !mem.ptr<i32, 1> -> !mem.ptr<i32, 0>
  %r0, %r = mem.load %c0, %h : !mem.ptr<i32, 0>
  %f1 = gpu.free.block %c1, %d : !mem.ptr<i32, 1>
  %f0 = mem.free %r0, %h : !mem.ptr<i32, 0>
  %e = gpu.deinit %f0, %f1, %l4
  func.return %e, %r : !mem.M<0>, i32
}
