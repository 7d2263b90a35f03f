// A global integer sum across work-groups: each group reduces its items' values with
// gpu.workgroup_reduce, and its item 0 adds the group's sum to one global cell with a single
// atomic (mem.atomic_rmw "add"). @main sums 0, 1, …, n - 1 on 16 groups of 256 items (a
// grid-stride loop) and returns the total, n (n - 1) / 2.
func.func @sum(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
               %group: index, %item: index, %n_items: index, %n: index,
               %total: !mem.ptr<i64, 1>)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %zero = arith.constant 0 : i64
  %base = arith.muli %group, %n_items : index
  %first = arith.addi %base, %item : index
  %grid = arith.muli %n_items, %c16 : index
  %mine = scf.for %i = %first to %n step %grid iter_args(%acc = %zero) -> (i64) {
    %v = arith.index_cast %i : index to i64
    %next = arith.addi %acc, %v : i64
    scf.yield %next : i64
  }
  %a1, %a3, %group_sum = gpu.workgroup_reduce "add" %m1, %m3, %mine : i64
  %lead = arith.cmpi eq, %item, %c0 : index
  %b1 = scf.if %lead -> (!mem.M<1>) {
    %t1, %old = mem.atomic_rmw "add" %a1, %total, %group_sum : !mem.ptr<i64, 1>
    scf.yield %t1 : !mem.M<1>
  } else {
    scf.yield %a1 : !mem.M<1>
  }
  func.return %b1, %a3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}

func.func @main(%m: !mem.M<0>, %n: index) -> (!mem.M<0>, i64) {
  %m0, %m1, %m4 = gpu.init %m
  %c16 = arith.constant 16 : index
  %c256 = arith.constant 256 : index
  %zero = arith.constant 0 : i64
  %h0, %host = mem.alloc %m0 : !mem.ptr<i64, 0>
  %i0 = mem.store %h0, %host, %zero : !mem.ptr<i64, 0>
  %j0, %j1, %total = gpu.alloc_copy.block %i0, %m1, %host : !mem.ptr<i64, 0> -> !mem.ptr<i64, 1>
  %stream = gpu.default_stream
  %l0, %l1, %l4 = gpu.launch @sum grid(%c16, %c256) stream(%stream) mems(%j0, %j1, %m4)
      args(%c256, %n, %total) : (index, index, !mem.ptr<i64, 1>)
  %k0, %k1 = gpu.copy_to_host.block %l0, %l1, %total -> %host : !mem.ptr<i64, 1> -> !mem.ptr<i64, 0>
  %r0, %result = mem.load %k0, %host : !mem.ptr<i64, 0>
  %f1 = gpu.free.block %k1, %total : !mem.ptr<i64, 1>
  %f0 = mem.free %r0, %host : !mem.ptr<i64, 0>
  %done = gpu.deinit %f0, %f1, %l4
  func.return %done, %result : !mem.M<0>, i64
}
