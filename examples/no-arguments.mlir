// A kernel without arguments (after MimIR's lit/gpu/no_arg_kernel): main copies its argument to
// the device with gpu.alloc_copy.block, launches a kernel that takes no arguments, copies the
// (unchanged) value back and returns it.
//
//   gpu-opt examples/no-arguments.mlir -p gpu-pipeline

func.func @kernel(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
                  %group: index, %item: index)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
  func.return %m1, %m3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}

func.func @main(%m: !mem.M<0>, %x: i32) -> (!mem.M<0>, i32) {
  %a0, %host = mem.alloc %m : !mem.ptr<i32, 0>
  %b0 = mem.store %a0, %host, %x : !mem.ptr<i32, 0>
  %m0, %m1, %m4 = gpu.init %b0
  %c0, %c1, %dev = gpu.alloc_copy.block %m0, %m1, %host : !mem.ptr<i32, 0> -> !mem.ptr<i32, 1>
  %stream = gpu.default_stream
  %four = arith.constant 4 : index
  %l0, %l1, %l4 = gpu.launch @kernel grid(%four, %four) stream(%stream) mems(%c0, %c1, %m4)
  %d0, %d1 = gpu.copy_to_host.block %l0, %l1, %dev -> %host : !mem.ptr<i32, 1> -> !mem.ptr<i32, 0>
  %f1 = gpu.free.block %d1, %dev : !mem.ptr<i32, 1>
  %e0 = gpu.deinit %d0, %f1, %l4
  %g0, %v = mem.load %e0, %host : !mem.ptr<i32, 0>
  %done = mem.free %g0, %host : !mem.ptr<i32, 0>
  func.return %done, %v : !mem.M<0>, i32
}
