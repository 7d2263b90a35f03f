// Stream compaction with an atomic counter: every work-item whose value passes the test (here:
// odd) takes the next free place of the output with mem.atomic_rmw "add" on a counter and
// stores its value there. The order of the kept values is whatever order the atomics ran in;
// @main returns what does not depend on it: how many were kept and their sum. The values are
// 3 k + 1 for k < n (odd for even k): n = 1000 keeps 500 values that sum to 749000.
func.func @compact(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
                   %group: index, %item: index, %n_items: index, %n: index,
                   %values: !mem.ptr<!mem.array<? x i32>, 1>,
                   %kept: !mem.ptr<!mem.array<? x i32>, 1>, %count: !mem.ptr<i32, 1>)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
  %one = arith.constant 1 : i32
  %base = arith.muli %group, %n_items : index
  %i = arith.addi %base, %item : index
  %inside = arith.cmpi ult, %i, %n : index
  %r1 = scf.if %inside -> (!mem.M<1>) {
    %p = mem.lea %values, %i : !mem.ptr<!mem.array<? x i32>, 1>
    %a1, %v = mem.load %m1, %p : !mem.ptr<i32, 1>
    %low = arith.andi %v, %one : i32
    %odd = arith.cmpi eq, %low, %one : i32
    %b1 = scf.if %odd -> (!mem.M<1>) {
      %t1, %place = mem.atomic_rmw "add" %a1, %count, %one : !mem.ptr<i32, 1>
      %at = arith.index_cast %place : i32 to index
      %q = mem.lea %kept, %at : !mem.ptr<!mem.array<? x i32>, 1>
      %t2 = mem.store %t1, %q, %v : !mem.ptr<i32, 1>
      scf.yield %t2 : !mem.M<1>
    } else {
      scf.yield %a1 : !mem.M<1>
    }
    scf.yield %b1 : !mem.M<1>
  } else {
    scf.yield %m1 : !mem.M<1>
  }
  func.return %r1, %m3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}

func.func @main(%m: !mem.M<0>, %n: index) -> (!mem.M<0>, i32, i64) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  %c127 = arith.constant 127 : index
  %three = arith.constant 3 : i32
  %one = arith.constant 1 : i32
  %zero = arith.constant 0 : i32
  %a0, %host = mem.alloc %m, %n : !mem.ptr<!mem.array<? x i32>, 0>
  %b0 = scf.for %k = %c0 to %n step %c1 iter_args(%t = %a0) -> (!mem.M<0>) {
    %k32 = arith.index_cast %k : index to i32
    %x = arith.muli %k32, %three : i32
    %v = arith.addi %x, %one : i32
    %e = mem.lea %host, %k : !mem.ptr<!mem.array<? x i32>, 0>
    %t2 = mem.store %t, %e, %v : !mem.ptr<i32, 0>
    scf.yield %t2 : !mem.M<0>
  }
  %c0_, %hcount = mem.alloc %b0 : !mem.ptr<i32, 0>
  %d0 = mem.store %c0_, %hcount, %zero : !mem.ptr<i32, 0>
  %m0, %m1, %m4 = gpu.init %d0
  %v1, %values = gpu.alloc.block %m1, %n : !mem.ptr<!mem.array<? x i32>, 1>
  %e0, %e1 = gpu.copy_to_device.block %m0, %v1, %host -> %values : !mem.ptr<!mem.array<? x i32>, 0> -> !mem.ptr<!mem.array<? x i32>, 1>
  %f0, %f1, %count = gpu.alloc_copy.block %e0, %e1, %hcount : !mem.ptr<i32, 0> -> !mem.ptr<i32, 1>
  %g1, %kept = gpu.alloc.block %f1, %n : !mem.ptr<!mem.array<? x i32>, 1>
  %above = arith.addi %n, %c127 : index
  %groups = arith.divui %above, %c128 : index
  %stream = gpu.default_stream
  %l0, %l1, %l4 = gpu.launch @compact grid(%groups, %c128) stream(%stream) mems(%f0, %g1, %m4)
      args(%c128, %n, %values, %kept, %count) : (index, index, !mem.ptr<!mem.array<? x i32>, 1>, !mem.ptr<!mem.array<? x i32>, 1>, !mem.ptr<i32, 1>)
  %h0, %h1 = gpu.copy_to_host.block %l0, %l1, %count -> %hcount : !mem.ptr<i32, 1> -> !mem.ptr<i32, 0>
  %i0, %i1 = gpu.copy_to_host.block %h0, %h1, %kept -> %host : !mem.ptr<!mem.array<? x i32>, 1> -> !mem.ptr<!mem.array<? x i32>, 0>
  %j0, %n_kept = mem.load %i0, %hcount : !mem.ptr<i32, 0>
  %upto = arith.index_cast %n_kept : i32 to index
  %zero64 = arith.constant 0 : i64
  %k0, %sum = scf.for %k = %c0 to %upto step %c1 iter_args(%t = %j0, %acc = %zero64) -> (!mem.M<0>, i64) {
    %e = mem.lea %host, %k : !mem.ptr<!mem.array<? x i32>, 0>
    %t2, %v = mem.load %t, %e : !mem.ptr<i32, 0>
    %w = arith.extsi %v : i32 to i64
    %acc2 = arith.addi %acc, %w : i64
    scf.yield %t2, %acc2 : !mem.M<0>, i64
  }
  %q1 = gpu.free.block %i1, %values : !mem.ptr<!mem.array<? x i32>, 1>
  %q2 = gpu.free.block %q1, %count : !mem.ptr<i32, 1>
  %q3 = gpu.free.block %q2, %kept : !mem.ptr<!mem.array<? x i32>, 1>
  %r0 = mem.free %k0, %host : !mem.ptr<!mem.array<? x i32>, 0>
  %r1 = mem.free %r0, %hcount : !mem.ptr<i32, 0>
  %done = gpu.deinit %r1, %q3, %l4
  func.return %done, %n_kept, %sum : !mem.M<0>, i32, i64
}
