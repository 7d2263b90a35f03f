// Kernels on two streams that nothing orders, both adding to one cell with mem.atomic_rmw:
// atomic accesses do not race, on one stream or two, so interp's stream-order check reports
// nothing; after both streams end, the cell holds 1 + 10 = 11 (and 3 more from a third launch
// of 3 work-items on the default stream, which waits for both streams: 14).
// stream-atomic-race.mlir makes one of the two a plain store.
// RUN: gpu-run %s --provider interp | filecheck %s
// RUN: gpu-run %s --provider cpu | filecheck %s

// CHECK:      14
// CHECK-EMPTY:

func.func @add(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
               %group: index, %item: index, %cell: !mem.ptr<i32, 1>, %amount: i32)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
  %a1, %old = mem.atomic_rmw "add" %m1, %cell, %amount : !mem.ptr<i32, 1>
  func.return %a1, %m3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}

func.func @main(%m: !mem.M<0>) -> (!mem.M<0>, i32) {
  %a0, %host = mem.alloc %m : !mem.ptr<i32, 0>
  %zero = arith.constant 0 : i32
  %z0 = mem.store %a0, %host, %zero : !mem.ptr<i32, 0>
  %m0, %m1, %m4 = gpu.init %z0
  %b1, %dev = gpu.alloc.block %m1 : !mem.ptr<i32, 1>
  %c0, %c1 = gpu.copy_to_device.block %m0, %b1, %host -> %dev : !mem.ptr<i32, 0> -> !mem.ptr<i32, 1>
  %one = arith.constant 1 : index
  %three = arith.constant 3 : index
  %i1 = arith.constant 1 : i32
  %i10 = arith.constant 10 : i32
  %e0, %e1 = gpu.with_streams %c0, %c1 count 2 {
  ^bb0(%s0: !mem.M<0>, %s1: !mem.M<1>, %stream1: !gpu.stream, %stream2: !gpu.stream):
    %h0, %h1, %h4 = gpu.launch @add grid(%one, %one) stream(%stream1) mems(%s0, %s1, %m4)
        args(%dev, %i1) : (!mem.ptr<i32, 1>, i32)
    %j0, %j1, %j4 = gpu.launch @add grid(%one, %one) stream(%stream2) mems(%h0, %h1, %h4)
        args(%dev, %i10) : (!mem.ptr<i32, 1>, i32)
    %w0, %w1 = gpu.stream_sync %j0, %j1, %stream1
    %v0, %v1 = gpu.stream_sync %w0, %w1, %stream2
    gpu.yield %v0, %v1 : !mem.M<0>, !mem.M<1>
  }
  %d = gpu.default_stream
  %l0, %l1, %l4 = gpu.launch @add grid(%one, %three) stream(%d) mems(%e0, %e1, %m4)
      args(%dev, %i1) : (!mem.ptr<i32, 1>, i32)
  %k0, %k1 = gpu.copy_to_host.block %l0, %l1, %dev -> %host : !mem.ptr<i32, 1> -> !mem.ptr<i32, 0>
  %f1 = gpu.free.block %k1, %dev : !mem.ptr<i32, 1>
  %closed = gpu.deinit %k0, %f1, %l4
  %o0, %value = mem.load %closed, %host : !mem.ptr<i32, 0>
  %done = mem.free %o0, %host : !mem.ptr<i32, 0>
  func.return %done, %value : !mem.M<0>, i32
}
