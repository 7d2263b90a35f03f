// A planted bug: the host frees the device array before the kernel that fills it runs.
// RUN: not gpu-run %s --provider interp 2>&1 | filecheck %s

// CHECK:      use-after-free.mlir:14:3: error: use after free: work-item (group 0, item 0) stores 4 bytes to a 16-byte global allocation (by 'gpu.alloc.block' at {{.*}}use-after-free.mlir:20:3), freed by 'gpu.free.block' at {{.*}}use-after-free.mlir:21:3
// CHECK-NEXT:   %a1 = mem.store %m1, %slot, %v : !mem.ptr<i32, 1>
// CHECK:      use-after-free.mlir:21:3: note: freed here
// CHECK-NOT:  Traceback

func.func @kernel(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
                  %group: index, %item: index, %data: !mem.ptr<!mem.array<4 x i32>, 1>)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
  %slot = mem.lea %data, %item : !mem.ptr<!mem.array<4 x i32>, 1>
  %v = arith.index_cast %item : index to i32
  %a1 = mem.store %m1, %slot, %v : !mem.ptr<i32, 1>
  func.return %a1, %m3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}

func.func @main(%m: !mem.M<0>) -> !mem.M<0> {
  %m0, %m1, %m4 = gpu.init %m
  %a1, %dev = gpu.alloc.block %m1 : !mem.ptr<!mem.array<4 x i32>, 1>
  %f1 = gpu.free.block %a1, %dev : !mem.ptr<!mem.array<4 x i32>, 1>
  %stream = gpu.default_stream
  %one = arith.constant 1 : index
  %four = arith.constant 4 : index
  %l0, %l1, %l4 = gpu.launch @kernel grid(%one, %four) stream(%stream) mems(%m0, %f1, %m4)
      args(%dev) : (!mem.ptr<!mem.array<4 x i32>, 1>)
  %done = gpu.deinit %l0, %l1, %l4
  func.return %done : !mem.M<0>
}
