// Invalid (after MimIR's lit/gpu/no_gpu_deinit): main opens the device with gpu.init but
// returns the global-memory token instead of closing the device with gpu.deinit. mem-checks
// rejects a main that returns a device token.
//
//   gpu-opt examples/invalid-main-returns-device-token.mlir -p gpu-pipeline    # fails

func.func @kernel(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
                  %group: index, %item: index, %data: !mem.ptr<i32, 1>)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
  %c42 = arith.constant 42 : i32
  %a1 = mem.store %m1, %data, %c42 : !mem.ptr<i32, 1>
  func.return %a1, %m3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}

func.func @main(%m: !mem.M<0>, %x: i32) -> (!mem.M<0>, !mem.M<1>, i32) {
  %a0, %host = mem.alloc %m : !mem.ptr<i32, 0>
  %b0 = mem.store %a0, %host, %x : !mem.ptr<i32, 0>
  %m0, %m1, %m4 = gpu.init %b0
  %a1, %dev = mem.alloc %m1 : !mem.ptr<i32, 1>
  %c0, %b1 = gpu.copy_to_device.block %m0, %a1, %host -> %dev : !mem.ptr<i32, 0> -> !mem.ptr<i32, 1>
  %stream = gpu.default_stream
  %four = arith.constant 4 : index
  %l0, %l1, %l4 = gpu.launch @kernel grid(%four, %four) stream(%stream) mems(%c0, %b1, %m4)
      args(%dev) : (!mem.ptr<i32, 1>)
  %d0, %d1 = gpu.copy_to_host.block %l0, %l1, %dev -> %host : !mem.ptr<i32, 1> -> !mem.ptr<i32, 0>
  %e1 = mem.free %d1, %dev : !mem.ptr<i32, 1>
  %f0, %v = mem.load %d0, %host : !mem.ptr<i32, 0>
  %done = mem.free %f0, %host : !mem.ptr<i32, 0>
  func.return %done, %e1, %v : !mem.M<0>, !mem.M<1>, i32
}
