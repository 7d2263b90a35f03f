// Invalid (after MimIR's lit/gpu/mem_arg_kernel): a memory token passed as a kernel argument.
// The kernel would write host memory through main's token, but host and device do not share a
// token chain: mem-checks rejects any !mem.M crossing the device boundary.
//
//   gpu-opt examples/invalid-token-argument.mlir -p gpu-pipeline    # fails

func.func @kernel(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
                  %group: index, %item: index,
                  %m0: !mem.M<0>, %host: !mem.ptr<i32, 0>, %dev: !mem.ptr<i32, 1>)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
  %c42 = arith.constant 42 : i32
  %c24 = arith.constant 24 : i32
  %a0 = mem.store %m0, %host, %c42 : !mem.ptr<i32, 0>
  %a1 = mem.store %m1, %dev, %c24 : !mem.ptr<i32, 1>
  func.return %a1, %m3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}

func.func @main(%m: !mem.M<0>, %x: i32) -> (!mem.M<0>, i32) {
  %a0, %host = mem.alloc %m : !mem.ptr<i32, 0>
  %b0 = mem.store %a0, %host, %x : !mem.ptr<i32, 0>
  %m0, %m1, %m4 = gpu.init %b0
  %a1, %dev = mem.alloc %m1 : !mem.ptr<i32, 1>
  %c0, %b1 = gpu.copy_to_device.block %m0, %a1, %host -> %dev : !mem.ptr<i32, 0> -> !mem.ptr<i32, 1>
  %stream = gpu.default_stream
  %four = arith.constant 4 : index
  %l0, %l1, %l4 = gpu.launch @kernel grid(%four, %four) stream(%stream) mems(%c0, %b1, %m4)
      args(%c0, %host, %dev) : (!mem.M<0>, !mem.ptr<i32, 0>, !mem.ptr<i32, 1>)
  %d0, %d1 = gpu.copy_to_host.block %l0, %l1, %dev -> %host : !mem.ptr<i32, 1> -> !mem.ptr<i32, 0>
  %e1 = mem.free %d1, %dev : !mem.ptr<i32, 1>
  %e0 = gpu.deinit %d0, %e1, %l4
  %f0, %v = mem.load %e0, %host : !mem.ptr<i32, 0>
  %done = mem.free %f0, %host : !mem.ptr<i32, 0>
  func.return %done, %v : !mem.M<0>, i32
}
