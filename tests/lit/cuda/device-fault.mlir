// A device fault: the kernel stores 4 TiB past its array. The launch returns at once; the
// fault is reported by the next driver call, the blocking copy back, at that op, with a note
// at the launch that caused it. No traceback, exit status 1.
// RUN: not gpu-run %s --provider cuda 2>&1 | filecheck %s

// CHECK:      device-fault.mlir:29:3: error: cuda: {{.*}}CUDA_ERROR_ILLEGAL_ADDRESS (an illegal memory access was encountered); a kernel faulted, and the device reports a fault at the first call after it (launches not yet waited for: @wild)
// CHECK:      device-fault.mlir:27:3: note: launch of @wild, not yet waited for
// CHECK-NOT:  Traceback

func.func @wild(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
                %g: index, %i: index, %data: !mem.ptr<!mem.array<? x i32>, 1>)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
  %far = arith.constant 1099511627776 : index
  %p = mem.lea %data, %far : !mem.ptr<!mem.array<? x i32>, 1>
  %v = arith.constant 7 : i32
  %a1 = mem.store %m1, %p, %v : !mem.ptr<i32, 1>
  func.return %a1, %m3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}

func.func @main(%m: !mem.M<0>) -> (!mem.M<0>, i32) {
  %m0, %m1, %m4 = gpu.init %m
  %four = arith.constant 4 : index
  %a0, %host = mem.alloc %m0, %four : !mem.ptr<!mem.array<? x i32>, 0>
  %a1, %dev = gpu.alloc.block %m1, %four : !mem.ptr<!mem.array<? x i32>, 1>
  %s = gpu.default_stream
  %one = arith.constant 1 : index
  %l0, %l1, %l4 = gpu.launch @wild grid(%one, %one) stream(%s) mems(%a0, %a1, %m4)
      args(%dev) : (!mem.ptr<!mem.array<? x i32>, 1>)
  %c0, %c1 = gpu.copy_to_host.block %l0, %l1, %dev -> %host
      : !mem.ptr<!mem.array<? x i32>, 1> -> !mem.ptr<!mem.array<? x i32>, 0>
  %f1 = gpu.free.block %c1, %dev : !mem.ptr<!mem.array<? x i32>, 1>
  %done = gpu.deinit %c0, %f1, %l4
  %zero = arith.constant 0 : i32
  func.return %done, %zero : !mem.M<0>, i32
}
