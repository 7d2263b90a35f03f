// What is not a race. Every item stores 7 into the same global word (the same value), then,
// after a barrier, item 0 of each group adds the group's four shared values that the items
// stored before the barrier; groups write disjoint outputs. Each group's sum is
// 7 * 4 + (0 + 1 + 2 + 3) = 34, and main returns out[0] + out[1] = 68 and the shared word, 7.
// RUN: gpu-run %s --provider interp | filecheck %s

// CHECK:      68
// CHECK-NEXT: 7
// CHECK-EMPTY:

func.func @kernel(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
                  %group: index, %item: index,
                  %word: !mem.ptr<i32, 1>, %out: !mem.ptr<!mem.array<2 x i32>, 1>)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
  %seven = arith.constant 7 : i32
  %a1 = mem.store %m1, %word, %seven : !mem.ptr<i32, 1>
  %a3, %shared = mem.slot %m3 : !mem.ptr<!mem.array<4 x i32>, 3>
  %mine = mem.lea %shared, %item : !mem.ptr<!mem.array<4 x i32>, 3>
  %id = arith.index_cast %item : index to i32
  %v = arith.addi %id, %seven : i32
  %b3 = mem.store %a3, %mine, %v : !mem.ptr<i32, 3>
  %c1, %c3 = gpu.sync_work_items %a1, %b3
  %zero = arith.constant 0 : index
  %one = arith.constant 1 : index
  %four = arith.constant 4 : index
  %first = arith.cmpi eq, %item, %zero : index
  %r1, %r3 = scf.if %first -> (!mem.M<1>, !mem.M<3>) {
    %init = arith.constant 0 : i32
    %t3, %sum = scf.for %k = %zero to %four step %one
        iter_args(%tok = %c3, %acc = %init) -> (!mem.M<3>, i32) {
      %e = mem.lea %shared, %k : !mem.ptr<!mem.array<4 x i32>, 3>
      %tok2, %x = mem.load %tok, %e : !mem.ptr<i32, 3>
      %acc2 = arith.addi %acc, %x : i32
      scf.yield %tok2, %acc2 : !mem.M<3>, i32
    }
    %slot = mem.lea %out, %group : !mem.ptr<!mem.array<2 x i32>, 1>
    %s1 = mem.store %c1, %slot, %sum : !mem.ptr<i32, 1>
    scf.yield %s1, %t3 : !mem.M<1>, !mem.M<3>
  } else {
    scf.yield %c1, %c3 : !mem.M<1>, !mem.M<3>
  }
  func.return %r1, %r3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}

func.func @main(%m: !mem.M<0>) -> (!mem.M<0>, i32, i32) {
  %m0, %m1, %m4 = gpu.init %m
  %a0, %host = mem.alloc %m0 : !mem.ptr<!mem.array<2 x i32>, 0>
  %b0, %hword = mem.alloc %a0 : !mem.ptr<i32, 0>
  %a1, %word = gpu.alloc.block %m1 : !mem.ptr<i32, 1>
  %b1, %out = gpu.alloc.block %a1 : !mem.ptr<!mem.array<2 x i32>, 1>
  %stream = gpu.default_stream
  %two = arith.constant 2 : index
  %four = arith.constant 4 : index
  %l0, %l1, %l4 = gpu.launch @kernel grid(%two, %four) stream(%stream) mems(%b0, %b1, %m4)
      args(%word, %out) : (!mem.ptr<i32, 1>, !mem.ptr<!mem.array<2 x i32>, 1>)
  %c0, %c1 = gpu.copy_to_host.block %l0, %l1, %out -> %host
      : !mem.ptr<!mem.array<2 x i32>, 1> -> !mem.ptr<!mem.array<2 x i32>, 0>
  %d0, %d1 = gpu.copy_to_host.block %c0, %c1, %word -> %hword : !mem.ptr<i32, 1> -> !mem.ptr<i32, 0>
  %zero = arith.constant 0 : index
  %one = arith.constant 1 : index
  %p0 = mem.lea %host, %zero : !mem.ptr<!mem.array<2 x i32>, 0>
  %p1 = mem.lea %host, %one : !mem.ptr<!mem.array<2 x i32>, 0>
  %e0, %x0 = mem.load %d0, %p0 : !mem.ptr<i32, 0>
  %f0, %x1 = mem.load %e0, %p1 : !mem.ptr<i32, 0>
  %g0, %w = mem.load %f0, %hword : !mem.ptr<i32, 0>
  %sum = arith.addi %x0, %x1 : i32
  %e1 = gpu.free.block %d1, %word : !mem.ptr<i32, 1>
  %f1 = gpu.free.block %e1, %out : !mem.ptr<!mem.array<2 x i32>, 1>
  %h0 = mem.free %g0, %host : !mem.ptr<!mem.array<2 x i32>, 0>
  %i0 = mem.free %h0, %hword : !mem.ptr<i32, 0>
  %done = gpu.deinit %i0, %f1, %l4
  func.return %done, %sum, %w : !mem.M<0>, i32, i32
}
