// stream-atomics.mlir with the kernel on stream 2 storing its amount with a plain mem.store: an
// atomic access and a plain one on two streams that nothing orders race (only two atomic ones
// do not), and interp's stream-order check reports the store.
// RUN: not gpu-run %s --provider interp 2>&1 | filecheck %s

// CHECK:      stream-atomic-race.mlir:[[# @LINE + 26]]:5: error: unordered access to global memory: work-item (group 0, item 0) of this launch ('mem.store' at {{.*}}stream-atomic-race.mlir:[[# @LINE + 12]]:3) on stream 2 writes byte 0 of a 4-byte global allocation (by 'gpu.alloc.block' at {{.*}}), which 'gpu.launch' at {{.*}}stream-atomic-race.mlir:[[# @LINE + 24]]:5 (work-item (group 0, item 0), 'mem.atomic_rmw' at {{.*}}stream-atomic-race.mlir:[[# @LINE + 5]]:3) on stream 1 wrote, and no stream sync orders the two

func.func @add(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
               %group: index, %item: index, %cell: !mem.ptr<i32, 1>, %amount: i32)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
  %a1, %old = mem.atomic_rmw "add" %m1, %cell, %amount : !mem.ptr<i32, 1>
  func.return %a1, %m3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}

func.func @put(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
               %group: index, %item: index, %cell: !mem.ptr<i32, 1>, %amount: i32)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
  %a1 = mem.store %m1, %cell, %amount : !mem.ptr<i32, 1>
  func.return %a1, %m3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}

func.func @main(%m: !mem.M<0>) -> (!mem.M<0>) {
  %m0, %m1, %m4 = gpu.init %m
  %b1, %dev = gpu.alloc.block %m1 : !mem.ptr<i32, 1>
  %one = arith.constant 1 : index
  %i1 = arith.constant 1 : i32
  %i10 = arith.constant 10 : i32
  %e0, %e1 = gpu.with_streams %m0, %b1 count 2 {
  ^bb0(%s0: !mem.M<0>, %s1: !mem.M<1>, %stream1: !gpu.stream, %stream2: !gpu.stream):
    %h0, %h1, %h4 = gpu.launch @add grid(%one, %one) stream(%stream1) mems(%s0, %s1, %m4)
        args(%dev, %i1) : (!mem.ptr<i32, 1>, i32)
    %j0, %j1, %j4 = gpu.launch @put grid(%one, %one) stream(%stream2) mems(%h0, %h1, %h4)
        args(%dev, %i10) : (!mem.ptr<i32, 1>, i32)
    gpu.yield %j0, %j1 : !mem.M<0>, !mem.M<1>
  }
  %f1 = gpu.free.block %e1, %dev : !mem.ptr<i32, 1>
  %closed = gpu.deinit %e0, %f1, %m4
  func.return %closed : !mem.M<0>
}
