// A barrier, then `if (k >= n) return;` in cf blocks, then a read of the neighbour's shared
// slot: interp and cpu give the same results (cpu outlines the cf tail after the barrier and
// runs it per work-item). 2 groups of 8 items over 13 elements: out[k] = (item + 1) % 8 +
// 100 * group for k < 13.
// RUN: gpu-run %s --provider interp | filecheck %s
// RUN: gpu-run %s --provider cpu | filecheck %s

// CHECK:      1
// CHECK-NEXT: 0
// CHECK-NEXT: 101
// CHECK-NEXT: 105
// CHECK-EMPTY:

func.func @k(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
             %group: index, %item: index, %n: index, %out: !mem.ptr<!mem.array<? x i32>, 1>)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
  %s3, %tile = mem.slot %m3 : !mem.ptr<!mem.array<8 x i32>, 3>
  %mine = mem.lea %tile, %item : !mem.ptr<!mem.array<8 x i32>, 3>
  %v = arith.index_cast %item : index to i32
  %w3 = mem.store %s3, %mine, %v : !mem.ptr<i32, 3>
  %b1, %b3 = gpu.sync_work_items %m1, %w3
  %size = arith.constant 8 : index
  %g = arith.muli %group, %size : index
  %k = arith.addi %g, %item : index
  %done = arith.cmpi uge, %k, %n : index
  cf.cond_br %done, ^exit, ^work
^work:
  %one = arith.constant 1 : index
  %next = arith.addi %item, %one : index
  %wrap = arith.remui %next, %size : index
  %theirs = mem.lea %tile, %wrap : !mem.ptr<!mem.array<8 x i32>, 3>
  %l3, %x = mem.load %b3, %theirs : !mem.ptr<i32, 3>
  %hundred = arith.constant 100 : i32
  %gi = arith.index_cast %group : index to i32
  %gx = arith.muli %gi, %hundred : i32
  %y = arith.addi %x, %gx : i32
  %at = mem.lea %out, %k : !mem.ptr<!mem.array<? x i32>, 1>
  %t1 = mem.store %b1, %at, %y : !mem.ptr<i32, 1>
  func.return %t1, %l3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
^exit:
  func.return %b1, %b3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}

func.func @main(%m: !mem.M<0>) -> (!mem.M<0>, i32, i32, i32, i32) {
  %m0, %m1, %m4 = gpu.init %m
  %n = arith.constant 13 : index
  %h0, %h = mem.alloc %m0, %n : !mem.ptr<!mem.array<? x i32>, 0>
  %d1, %d = gpu.alloc.block %m1, %n : !mem.ptr<!mem.array<? x i32>, 1>
  %s = gpu.default_stream
  %groups = arith.constant 2 : index
  %items = arith.constant 8 : index
  %l0, %l1, %l4 = gpu.launch @k grid(%groups, %items) stream(%s) mems(%h0, %d1, %m4)
      args(%n, %d) : (index, !mem.ptr<!mem.array<? x i32>, 1>)
  %c0, %c1 = gpu.copy_to_host.block %l0, %l1, %d -> %h : !mem.ptr<!mem.array<? x i32>, 1> -> !mem.ptr<!mem.array<? x i32>, 0>
  %i0 = arith.constant 0 : index
  %i7 = arith.constant 7 : index
  %i8 = arith.constant 8 : index
  %i12 = arith.constant 12 : index
  %p0 = mem.lea %h, %i0 : !mem.ptr<!mem.array<? x i32>, 0>
  %p7 = mem.lea %h, %i7 : !mem.ptr<!mem.array<? x i32>, 0>
  %p8 = mem.lea %h, %i8 : !mem.ptr<!mem.array<? x i32>, 0>
  %p12 = mem.lea %h, %i12 : !mem.ptr<!mem.array<? x i32>, 0>
  %r0, %a = mem.load %c0, %p0 : !mem.ptr<i32, 0>
  %r1, %b = mem.load %r0, %p7 : !mem.ptr<i32, 0>
  %r2, %c = mem.load %r1, %p8 : !mem.ptr<i32, 0>
  %r3, %e = mem.load %r2, %p12 : !mem.ptr<i32, 0>
  %f1 = gpu.free.block %c1, %d : !mem.ptr<!mem.array<? x i32>, 1>
  %f0 = mem.free %r3, %h : !mem.ptr<!mem.array<? x i32>, 0>
  %done = gpu.deinit %f0, %f1, %l4
  func.return %done, %a, %b, %c, %e : !mem.M<0>, i32, i32, i32, i32
}
