// A kernel with two arguments (after MimIR's lit/gpu/two_arg_kernel): the kernel stores 42
// through its first pointer and 200 through its second; main returns their sum, 242.
// The device memory is a host-side mem.alloc in address space 1, which split-apply's host
// sub-pipeline (host-malloc-to-gpualloc) turns into gpu.alloc.block.
//
//   gpu-opt examples/two-arguments.mlir -p gpu-pipeline

func.func @kernel(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
                  %group: index, %item: index,
                  %data1: !mem.ptr<i32, 1>, %data2: !mem.ptr<i32, 1>)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
  %c42 = arith.constant 42 : i32
  %c200 = arith.constant 200 : i32
  %a1 = mem.store %m1, %data1, %c42 : !mem.ptr<i32, 1>
  %b1 = mem.store %a1, %data2, %c200 : !mem.ptr<i32, 1>
  func.return %b1, %m3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}

func.func @main(%m: !mem.M<0>, %x: i32) -> (!mem.M<0>, i32) {
  %a0, %ptr1 = mem.alloc %m : !mem.ptr<i32, 0>
  %b0, %ptr2 = mem.alloc %a0 : !mem.ptr<i32, 0>
  %c0 = mem.store %b0, %ptr1, %x : !mem.ptr<i32, 0>
  %d0 = mem.store %c0, %ptr2, %x : !mem.ptr<i32, 0>
  %m0, %m1, %m4 = gpu.init %d0
  %a1, %dev1 = mem.alloc %m1 : !mem.ptr<i32, 1>
  %b1, %dev2 = mem.alloc %a1 : !mem.ptr<i32, 1>
  %e0, %c1 = gpu.copy_to_device.block %m0, %b1, %ptr1 -> %dev1 : !mem.ptr<i32, 0> -> !mem.ptr<i32, 1>
  %f0, %d1 = gpu.copy_to_device.block %e0, %c1, %ptr2 -> %dev2 : !mem.ptr<i32, 0> -> !mem.ptr<i32, 1>
  %stream = gpu.default_stream
  %four = arith.constant 4 : index
  %l0, %l1, %l4 = gpu.launch @kernel grid(%four, %four) stream(%stream) mems(%f0, %d1, %m4)
      args(%dev1, %dev2) : (!mem.ptr<i32, 1>, !mem.ptr<i32, 1>)
  %g0, %g1 = gpu.copy_to_host.block %l0, %l1, %dev1 -> %ptr1 : !mem.ptr<i32, 1> -> !mem.ptr<i32, 0>
  %h0, %h1 = gpu.copy_to_host.block %g0, %g1, %dev2 -> %ptr2 : !mem.ptr<i32, 1> -> !mem.ptr<i32, 0>
  %i1 = mem.free %h1, %dev1 : !mem.ptr<i32, 1>
  %j1 = mem.free %i1, %dev2 : !mem.ptr<i32, 1>
  %k0 = gpu.deinit %h0, %j1, %l4
  %n0, %val1 = mem.load %k0, %ptr1 : !mem.ptr<i32, 0>
  %o0, %val2 = mem.load %n0, %ptr2 : !mem.ptr<i32, 0>
  %p0 = mem.free %o0, %ptr1 : !mem.ptr<i32, 0>
  %done = mem.free %p0, %ptr2 : !mem.ptr<i32, 0>
  %sum = arith.addi %val1, %val2 : i32
  func.return %done, %sum : !mem.M<0>, i32
}
