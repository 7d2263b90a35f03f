// A local mem.mslot whose size is known only at run time, in kernels with barriers: every
// work-item keeps its own slot across the barrier. The size comes from the kernel's arguments
// (and, in @unstructured, the work-group id), so each group makes its items' slots at once. Item
// g (of the grid) fills its slot with 10 g + k for k < count, puts its first value in shared
// memory, passes the barrier, and stores the sum of its slot and of the next item's first
// value: 30 g + 3 + 10 g' for count 3.
// RUN: gpu-run %s --provider interp 3 | filecheck %s
// RUN: gpu-run %s --provider cpu 3 | filecheck %s
// RUN: gpu-run %s --provider cpu --check 3 | filecheck %s
// RUN: gpu-opt %s -p 'split-apply,cpu-workgroup-loops' | filecheck %s --check-prefix=LOWERED

// CHECK:      53
// CHECK-NEXT: 253
// CHECK-NEXT: 53
// CHECK-NEXT: 253
// CHECK-EMPTY:
// LOWERED:     func.func @structured(
// LOWERED:       %[[BYTES:.*]] = arith.muli %count, %{{.*}} : index
// LOWERED:       %[[PAD:.*]] = arith.addi %[[BYTES]], %{{.*}} : index
// LOWERED:       %[[STRIDE:.*]] = arith.andi %[[PAD]], %{{.*}} : index
// LOWERED:       %[[ALL:.*]] = arith.muli %n_items, %[[STRIDE]] : index
// LOWERED:       mem.mslot %{{.*}}, %[[ALL]] : !mem.ptr<!mem.array<? x i8>, 5>
// LOWERED:     func.func @unstructured(
// LOWERED:       mem.mslot %{{.*}} : !mem.ptr<!mem.array<? x i8>, 5>
// LOWERED:     func.func @unstructured.resume(

func.func @structured(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
                      %group: index, %item: index, %count: index,
                      %data: !mem.ptr<!mem.array<8 x i32>, 1>)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
  %four = arith.constant 4 : index
  %bytes = arith.muli %count, %four : index
  %a5, %slot = mem.mslot %m5, %bytes : !mem.ptr<!mem.array<? x i32>, 5>
  %a3, %firsts = mem.slot %m3 : !mem.ptr<!mem.array<4 x i32>, 3>
  %base = arith.muli %group, %four : index
  %g = arith.addi %base, %item : index
  %g32 = arith.index_cast %g : index to i32
  %ten = arith.constant 10 : i32
  %tens = arith.muli %g32, %ten : i32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %mine = mem.lea %firsts, %item : !mem.ptr<!mem.array<4 x i32>, 3>
  %b3 = mem.store %a3, %mine, %tens : !mem.ptr<i32, 3>
  %b5 = scf.for %k = %c0 to %count step %c1 iter_args(%t5 = %a5) -> (!mem.M<5>) {
    %k32 = arith.index_cast %k : index to i32
    %v = arith.addi %tens, %k32 : i32
    %p = mem.lea %slot, %k : !mem.ptr<!mem.array<? x i32>, 5>
    %u5 = mem.store %t5, %p, %v : !mem.ptr<i32, 5>
    scf.yield %u5 : !mem.M<5>
  }
  %s1, %s3 = gpu.sync_work_items %m1, %b3
  %next = arith.addi %item, %c1 : index
  %wrapped = arith.remui %next, %four : index
  %theirs = mem.lea %firsts, %wrapped : !mem.ptr<!mem.array<4 x i32>, 3>
  %r3, %start = mem.load %s3, %theirs : !mem.ptr<i32, 3>
  %c5, %sum = scf.for %k = %c0 to %count step %c1 iter_args(%t5 = %b5, %acc = %start)
      -> (!mem.M<5>, i32) {
    %p = mem.lea %slot, %k : !mem.ptr<!mem.array<? x i32>, 5>
    %u5, %v = mem.load %t5, %p : !mem.ptr<i32, 5>
    %acc2 = arith.addi %acc, %v : i32
    scf.yield %u5, %acc2 : !mem.M<5>, i32
  }
  %out = mem.lea %data, %g : !mem.ptr<!mem.array<8 x i32>, 1>
  %e1 = mem.store %s1, %out, %sum : !mem.ptr<i32, 1>
  func.return %e1, %r3, %m4, %c5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}

// The same work in cf blocks (the resumable form), its slot a word larger in each later group.
func.func @unstructured(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
                        %group: index, %item: index, %count: index,
                        %data: !mem.ptr<!mem.array<8 x i32>, 1>)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
  %four = arith.constant 4 : index
  %words = arith.addi %count, %group : index
  %bytes = arith.muli %words, %four : index
  %a5, %slot = mem.mslot %m5, %bytes : !mem.ptr<!mem.array<? x i32>, 5>
  %a3, %firsts = mem.slot %m3 : !mem.ptr<!mem.array<4 x i32>, 3>
  %base = arith.muli %group, %four : index
  %g = arith.addi %base, %item : index
  %g32 = arith.index_cast %g : index to i32
  %ten = arith.constant 10 : i32
  %tens = arith.muli %g32, %ten : i32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %mine = mem.lea %firsts, %item : !mem.ptr<!mem.array<4 x i32>, 3>
  %b3 = mem.store %a3, %mine, %tens : !mem.ptr<i32, 3>
  cf.br ^fill(%c0, %a5 : index, !mem.M<5>)
^fill(%k: index, %t5: !mem.M<5>):
  %more = arith.cmpi ult, %k, %count : index
  cf.cond_br %more, ^store, ^sync
^store:
  %k32 = arith.index_cast %k : index to i32
  %v = arith.addi %tens, %k32 : i32
  %p = mem.lea %slot, %k : !mem.ptr<!mem.array<? x i32>, 5>
  %u5 = mem.store %t5, %p, %v : !mem.ptr<i32, 5>
  %k1 = arith.addi %k, %c1 : index
  cf.br ^fill(%k1, %u5 : index, !mem.M<5>)
^sync:
  %s1, %s3 = gpu.sync_work_items %m1, %b3
  %next = arith.addi %item, %c1 : index
  %wrapped = arith.remui %next, %four : index
  %theirs = mem.lea %firsts, %wrapped : !mem.ptr<!mem.array<4 x i32>, 3>
  %r3, %start = mem.load %s3, %theirs : !mem.ptr<i32, 3>
  cf.br ^add(%c0, %t5, %start : index, !mem.M<5>, i32)
^add(%j: index, %w5: !mem.M<5>, %acc: i32):
  %left = arith.cmpi ult, %j, %count : index
  cf.cond_br %left, ^load, ^done
^load:
  %q = mem.lea %slot, %j : !mem.ptr<!mem.array<? x i32>, 5>
  %x5, %x = mem.load %w5, %q : !mem.ptr<i32, 5>
  %acc2 = arith.addi %acc, %x : i32
  %j1 = arith.addi %j, %c1 : index
  cf.br ^add(%j1, %x5, %acc2 : index, !mem.M<5>, i32)
^done:
  %out = mem.lea %data, %g : !mem.ptr<!mem.array<8 x i32>, 1>
  %e1 = mem.store %s1, %out, %acc : !mem.ptr<i32, 1>
  func.return %e1, %r3, %m4, %w5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}

func.func @main(%m: !mem.M<0>, %count: index) -> (!mem.M<0>, i32, i32, i32, i32) {
  %m0, %m1, %m4 = gpu.init %m
  %a1, %dev = gpu.alloc.block %m1 : !mem.ptr<!mem.array<8 x i32>, 1>
  %stream = gpu.default_stream
  %two = arith.constant 2 : index
  %four = arith.constant 4 : index
  %one = arith.constant 1 : index
  %six = arith.constant 6 : index
  %h0, %host = mem.alloc %m0 : !mem.ptr<!mem.array<8 x i32>, 0>
  %p1 = mem.lea %host, %one : !mem.ptr<!mem.array<8 x i32>, 0>
  %p6 = mem.lea %host, %six : !mem.ptr<!mem.array<8 x i32>, 0>
  %l0, %l1, %l4 = gpu.launch @structured grid(%two, %four) stream(%stream) mems(%h0, %a1, %m4)
      args(%count, %dev) : (index, !mem.ptr<!mem.array<8 x i32>, 1>)
  %b0, %b1 = gpu.copy_to_host.block %l0, %l1, %dev -> %host : !mem.ptr<!mem.array<8 x i32>, 1> -> !mem.ptr<!mem.array<8 x i32>, 0>
  %c0, %v1 = mem.load %b0, %p1 : !mem.ptr<i32, 0>
  %d0, %v6 = mem.load %c0, %p6 : !mem.ptr<i32, 0>
  %n0, %n1, %n4 = gpu.launch @unstructured grid(%two, %four) stream(%stream) mems(%d0, %b1, %l4)
      args(%count, %dev) : (index, !mem.ptr<!mem.array<8 x i32>, 1>)
  %e0, %e1 = gpu.copy_to_host.block %n0, %n1, %dev -> %host : !mem.ptr<!mem.array<8 x i32>, 1> -> !mem.ptr<!mem.array<8 x i32>, 0>
  %f0, %w1 = mem.load %e0, %p1 : !mem.ptr<i32, 0>
  %g0, %w6 = mem.load %f0, %p6 : !mem.ptr<i32, 0>
  %x1 = gpu.free.block %e1, %dev : !mem.ptr<!mem.array<8 x i32>, 1>
  %x0 = mem.free %g0, %host : !mem.ptr<!mem.array<8 x i32>, 0>
  %done = gpu.deinit %x0, %x1, %n4
  func.return %done, %v1, %v6, %w1, %w6 : !mem.M<0>, i32, i32, i32, i32
}
