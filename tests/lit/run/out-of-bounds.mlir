// A planted bug: an off-by-one index. Item i stores at data[i + 1] of a 4-element array, so
// item 3 stores just past its end.
// RUN: not gpu-run %s --provider interp 2>&1 | filecheck %s

// CHECK:      out-of-bounds.mlir:17:3: error: out of bounds: work-item (group 0, item 3) stores 4 bytes to byte offset 16 of a 16-byte global allocation (by 'gpu.alloc.block' at {{.*}}out-of-bounds.mlir:23:3) (bytes 16 to 19, valid 0 to 15)
// CHECK-NEXT:   %a1 = mem.store %m1, %slot, %v : !mem.ptr<i32, 1>
// CHECK:      out-of-bounds.mlir:23:3: note: allocated here
// CHECK-NOT:  Traceback

func.func @kernel(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
                  %group: index, %item: index, %data: !mem.ptr<!mem.array<4 x i32>, 1>)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
  %one = arith.constant 1 : index
  %next = arith.addi %item, %one : index
  %slot = mem.lea %data, %next : !mem.ptr<!mem.array<4 x i32>, 1>
  %v = arith.index_cast %item : index to i32
  %a1 = mem.store %m1, %slot, %v : !mem.ptr<i32, 1>
  func.return %a1, %m3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
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
