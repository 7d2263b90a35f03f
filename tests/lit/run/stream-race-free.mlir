// stream-race.mlir with the host waiting for stream 1 (gpu.stream_sync) before it puts the copy
// on stream 2: the sync orders the kernel's store before the copy, and main returns 7.
// RUN: gpu-run %s --provider interp | filecheck %s
// RUN: gpu-run %s --provider cpu | filecheck %s

// CHECK:      7
// CHECK-EMPTY:

func.func @kernel(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
                  %group: index, %item: index, %data: !mem.ptr<i32, 1>)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
  %c7 = arith.constant 7 : i32
  %a1 = mem.store %m1, %data, %c7 : !mem.ptr<i32, 1>
  func.return %a1, %m3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}

func.func @main(%m: !mem.M<0>) -> (!mem.M<0>, i32) {
  %a0, %host = mem.alloc %m : !mem.ptr<i32, 0>
  %m0, %m1, %m4 = gpu.init %a0
  %b1, %dev = gpu.alloc.block %m1 : !mem.ptr<i32, 1>
  %one = arith.constant 1 : index
  %e0, %e1 = gpu.with_streams %m0, %b1 count 2 {
  ^bb0(%s0: !mem.M<0>, %s1: !mem.M<1>, %stream1: !gpu.stream, %stream2: !gpu.stream):
    %h0, %h1, %h4 = gpu.launch @kernel grid(%one, %one) stream(%stream1) mems(%s0, %s1, %m4)
        args(%dev) : (!mem.ptr<i32, 1>)
    %w0, %w1 = gpu.stream_sync %h0, %h1, %stream1
    %j0, %j1 = gpu.copy_to_host.asyn %w0, %w1, %dev -> %host on %stream2 : !mem.ptr<i32, 1> -> !mem.ptr<i32, 0>
    gpu.yield %j0, %j1 : !mem.M<0>, !mem.M<1>
  }
  %f1 = gpu.free.block %e1, %dev : !mem.ptr<i32, 1>
  %closed = gpu.deinit %e0, %f1, %m4
  %o0, %value = mem.load %closed, %host : !mem.ptr<i32, 0>
  %done = mem.free %o0, %host : !mem.ptr<i32, 0>
  func.return %done, %value : !mem.M<0>, i32
}
