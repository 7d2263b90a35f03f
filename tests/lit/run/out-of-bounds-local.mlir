// A planted bug: a local array of two i32 per work-item, and a store to its element 2, one
// past the end. interp finds it; so does cpu --check, whose kernels leave a red zone after each
// local slot (the plain cpu provider does not check local memory).
// RUN: not gpu-run %s --provider interp 2>&1 | filecheck %s

// CHECK: out-of-bounds-local.mlir:16:3: error: out of bounds: work-item (group 0, item 0) stores 4 bytes to byte offset 8 of a 8-byte local slot of work-item (group 0, item 0) (by 'mem.slot' at {{.*}}out-of-bounds-local.mlir:12:3) (bytes 8 to 11, valid 0 to 7)
// CHECK-NOT: Traceback

func.func @kernel(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
                  %group: index, %item: index, %data: !mem.ptr<!mem.array<4 x i32>, 1>)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
  %a5, %mine = mem.slot %m5 : !mem.ptr<!mem.array<2 x i32>, 5>
  %two = arith.constant 2 : index
  %past = mem.lea %mine, %two : !mem.ptr<!mem.array<2 x i32>, 5>
  %id = arith.index_cast %item : index to i32
  %b5 = mem.store %a5, %past, %id : !mem.ptr<i32, 5>
  %s1, %s3 = gpu.sync_work_items %m1, %m3
  func.return %s1, %s3, %m4, %b5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}

func.func @main(%m: !mem.M<0>) -> !mem.M<0> {
  %m0, %m1, %m4 = gpu.init %m
  %a1, %dev = gpu.alloc.block %m1 : !mem.ptr<!mem.array<4 x i32>, 1>
  %stream = gpu.default_stream
  %one = arith.constant 1 : index
  %four = arith.constant 4 : index
  %l0, %l1, %l4 = gpu.launch @kernel grid(%one, %four) stream(%stream) mems(%m0, %a1, %m4)
      args(%dev) : (!mem.ptr<!mem.array<4 x i32>, 1>)
  %f1 = gpu.free.block %l1, %dev : !mem.ptr<!mem.array<4 x i32>, 1>
  %done = gpu.deinit %l0, %f1, %l4
  func.return %done : !mem.M<0>
}
