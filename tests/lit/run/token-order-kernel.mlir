// interp's token-order check in a kernel: each work-item stores to %a and to %b with one token,
// then loads %a after the first store only. The launch passes one buffer twice (argument 1):
// the second store may land before or after the load. With two buffers (argument 0) the
// program is fine. Each work-item is checked against itself; the race check orders the
// work-items.
// RUN: gpu-run %s --provider interp 0 | filecheck %s --check-prefix=TWO
// RUN: not gpu-run %s --provider interp 1 2>&1 | filecheck %s --check-prefix=ONE

func.func @kernel(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
                  %group: index, %item: index, %a: !mem.ptr<!mem.array<4 x i32>, 1>,
                  %b: !mem.ptr<!mem.array<4 x i32>, 1>)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
  %pa = mem.lea %a, %item : !mem.ptr<!mem.array<4 x i32>, 1>
  %pb = mem.lea %b, %item : !mem.ptr<!mem.array<4 x i32>, 1>
  %one = arith.constant 1 : i32
  %two = arith.constant 2 : i32
  %s1 = mem.store %m1, %pa, %one : !mem.ptr<i32, 1>
  %s2 = mem.store %m1, %pb, %two : !mem.ptr<i32, 1>
  %s3, %v = mem.load %s1, %pa : !mem.ptr<i32, 1>
  %w = arith.addi %v, %v : i32
  %s4 = mem.store %s3, %pa, %w : !mem.ptr<i32, 1>
  func.return %s4, %m3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}

func.func @main(%m: !mem.M<0>, %same: i1) -> (!mem.M<0>, i32) {
  %a0, %h = mem.alloc %m : !mem.ptr<!mem.array<4 x i32>, 0>
  %m0, %m1, %m4 = gpu.init %a0
  %b1, %da = gpu.alloc.block %m1 : !mem.ptr<!mem.array<4 x i32>, 1>
  %c1, %db = gpu.alloc.block %b1 : !mem.ptr<!mem.array<4 x i32>, 1>
  %d = arith.select %same, %da, %db : !mem.ptr<!mem.array<4 x i32>, 1>
  %one = arith.constant 1 : index
  %four = arith.constant 4 : index
  %s = gpu.default_stream
  %l0, %l1, %l4 = gpu.launch @kernel grid(%one, %four) stream(%s) mems(%m0, %c1, %m4)
      args(%da, %d) : (!mem.ptr<!mem.array<4 x i32>, 1>, !mem.ptr<!mem.array<4 x i32>, 1>)
  %f0, %f1 = gpu.copy_to_host.block %l0, %l1, %da -> %h : !mem.ptr<!mem.array<4 x i32>, 1> -> !mem.ptr<!mem.array<4 x i32>, 0>
  %g1 = gpu.free.block %f1, %da : !mem.ptr<!mem.array<4 x i32>, 1>
  %k1 = gpu.free.block %g1, %db : !mem.ptr<!mem.array<4 x i32>, 1>
  %closed = gpu.deinit %f0, %k1, %l4
  %three = arith.constant 3 : index
  %p = mem.lea %h, %three : !mem.ptr<!mem.array<4 x i32>, 0>
  %o0, %v = mem.load %closed, %p : !mem.ptr<i32, 0>
  %done = mem.free %o0, %h : !mem.ptr<!mem.array<4 x i32>, 0>
  func.return %done, %v : !mem.M<0>, i32
}

// TWO: 2

// ONE: token-order-kernel.mlir:18:3: error: unordered access to global memory: work-item (group 0, item 0) writes byte 0 of a 16-byte global allocation (by 'gpu.alloc.block' at {{.*}}token-order-kernel.mlir:28:3), which 'mem.store' at {{.*}}token-order-kernel.mlir:17:3 wrote, and no token chain orders the two: both consume one token
// ONE: token-order-kernel.mlir:17:3: note: the other access
// ONE-NOT: Traceback
