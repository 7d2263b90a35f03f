// A planted bug: an off-by-one index into the first of two shared arrays. Item i stores at
// first[i + 1], so item 3 stores just past its end, where the second array begins on a GPU
// (interp: a 16-byte shared array, out of bounds; cpu --check: the same, as its kernels leave
// a red zone after each shared array).
// RUN: not gpu-run %s --provider interp 2>&1 | filecheck %s

// CHECK:      out-of-bounds-shared.mlir:19:3: error: out of bounds: work-item (group 0, item 3) stores 4 bytes to byte offset 16 of a 16-byte shared array of group 0 (by 'mem.slot' at {{.*}}out-of-bounds-shared.mlir:13:3) (bytes 16 to 19, valid 0 to 15)
// CHECK-NOT:  Traceback

func.func @kernel(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
                  %group: index, %item: index, %data: !mem.ptr<!mem.array<4 x i32>, 1>)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
  %a3, %first = mem.slot %m3 : !mem.ptr<!mem.array<4 x i32>, 3>
  %b3, %second = mem.slot %a3 : !mem.ptr<!mem.array<4 x i32>, 3>
  %one = arith.constant 1 : index
  %next = arith.addi %item, %one : index
  %mine = mem.lea %first, %next : !mem.ptr<!mem.array<4 x i32>, 3>
  %id = arith.index_cast %item : index to i32
  %c3 = mem.store %b3, %mine, %id : !mem.ptr<i32, 3>
  func.return %m1, %c3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
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
