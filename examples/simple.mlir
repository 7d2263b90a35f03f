// simple (after MimIR's lit/gpu/simple_kernel and no_arg_kernel): the smallest GPU program.
// It opens the device, launches a 4 x 4 grid of a kernel that takes no arguments and only hands
// back its memory tokens, and closes the device.
//
//   gpu-opt examples/simple.mlir -p gpu-pipeline

func.func @kernel(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
                  %group: index, %item: index)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
  func.return %m1, %m3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}

func.func @main(%m: !mem.M<0>) -> !mem.M<0> {
  %m0, %m1, %m4 = gpu.init %m
  %stream = gpu.default_stream
  %four = arith.constant 4 : index
  %l0, %l1, %l4 = gpu.launch @kernel grid(%four, %four) stream(%stream) mems(%m0, %m1, %m4)
  %done = gpu.deinit %l0, %l1, %l4
  func.return %done : !mem.M<0>
}
