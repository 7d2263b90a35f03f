// A warp-shuffle reduction: each warp sums its lanes' values with five "down" shuffles (offsets
// 16, 8, 4, 2, 1; a lane whose source lane is past the end keeps its partial sum out of the
// total), and lane 0 of each warp adds the warp's sum to a global cell atomically. @main sums
// the squares of 0, 1, …, n - 1 (n ≤ 4096: 16 groups of 256 items, one value each) and returns
// the total, (n - 1) n (2n - 1) / 6.
func.func @warp_sum(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
                    %group: index, %item: index, %n_items: index, %n: index,
                    %total: !mem.ptr<i64, 1>)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0 : i64
  %width = arith.constant 32 : i32
  %base = arith.muli %group, %n_items : index
  %i = arith.addi %base, %item : index
  %inside = arith.cmpi ult, %i, %n : index
  %v = arith.index_cast %i : index to i64
  %square = arith.muli %v, %v : i64
  %x0 = arith.select %inside, %square, %zero : i64
  %o16 = arith.constant 16 : i32
  %a1, %a3, %y16, %ok16 = gpu.shuffle "down" %m1, %m3, %x0, %o16, %width : i64
  %s16 = arith.addi %x0, %y16 : i64
  %x16 = arith.select %ok16, %s16, %x0 : i64
  %o8 = arith.constant 8 : i32
  %b1, %b3, %y8, %ok8 = gpu.shuffle "down" %a1, %a3, %x16, %o8, %width : i64
  %s8 = arith.addi %x16, %y8 : i64
  %x8 = arith.select %ok8, %s8, %x16 : i64
  %o4 = arith.constant 4 : i32
  %c1, %c3, %y4, %ok4 = gpu.shuffle "down" %b1, %b3, %x8, %o4, %width : i64
  %s4 = arith.addi %x8, %y4 : i64
  %x4 = arith.select %ok4, %s4, %x8 : i64
  %o2 = arith.constant 2 : i32
  %d1, %d3, %y2, %ok2 = gpu.shuffle "down" %c1, %c3, %x4, %o2, %width : i64
  %s2 = arith.addi %x4, %y2 : i64
  %x2 = arith.select %ok2, %s2, %x4 : i64
  %o1 = arith.constant 1 : i32
  %e1, %e3, %y1, %ok1 = gpu.shuffle "down" %d1, %d3, %x2, %o1, %width : i64
  %s1 = arith.addi %x2, %y1 : i64
  %x1 = arith.select %ok1, %s1, %x2 : i64
  %lane = gpu.lane_id
  %lead = arith.cmpi eq, %lane, %c0 : index
  %f1 = scf.if %lead -> (!mem.M<1>) {
    %t1, %old = mem.atomic_rmw "add" %e1, %total, %x1 : !mem.ptr<i64, 1>
    scf.yield %t1 : !mem.M<1>
  } else {
    scf.yield %e1 : !mem.M<1>
  }
  func.return %f1, %e3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
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
  %l0, %l1, %l4 = gpu.launch @warp_sum grid(%c16, %c256) stream(%stream) mems(%j0, %j1, %m4)
      args(%c256, %n, %total) : (index, index, !mem.ptr<i64, 1>)
  %k0, %k1 = gpu.copy_to_host.block %l0, %l1, %total -> %host : !mem.ptr<i64, 1> -> !mem.ptr<i64, 0>
  %r0, %result = mem.load %k0, %host : !mem.ptr<i64, 0>
  %f1 = gpu.free.block %k1, %total : !mem.ptr<i64, 1>
  %f0 = mem.free %r0, %host : !mem.ptr<i64, 0>
  %done = gpu.deinit %f0, %f1, %l4
  func.return %done, %result : !mem.M<0>, i64
}
