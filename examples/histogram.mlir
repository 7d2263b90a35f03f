// A 256-bin histogram of n bytes (given as i32 values 0-255): each work-group counts its part
// in shared memory with shared-memory atomics, then adds its counts to the global histogram
// with one global atomic per bin. @main makes n values with a multiplicative hash, runs the
// kernel on 64 groups of 256 items, and returns the counts of bins 0, 1, 128 and 255 and their
// total (which must be n).
func.func @histogram(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
                     %group: index, %item: index, %n_items: index, %n: index,
                     %values: !mem.ptr<!mem.array<? x i32>, 1>,
                     %bins: !mem.ptr<!mem.array<256 x i32>, 1>)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
  %c0 = arith.constant 0 : index
  %c256 = arith.constant 256 : index
  %one = arith.constant 1 : i32
  %zero = arith.constant 0 : i32
  %a3, %local = mem.slot %m3 : !mem.ptr<!mem.array<256 x i32>, 3>
  // clear the group's bins (256 items: one bin each)
  %mine = mem.lea %local, %item : !mem.ptr<!mem.array<256 x i32>, 3>
  %b3 = mem.store %a3, %mine, %zero : !mem.ptr<i32, 3>
  %s1, %s3 = gpu.sync_work_items %m1, %b3
  // grid-stride loop over the values
  %start = arith.muli %group, %n_items : index
  %first = arith.addi %start, %item : index
  %groups = arith.constant 64 : index
  %grid = arith.muli %n_items, %groups : index
  %r1, %r3 = scf.for %i = %first to %n step %grid iter_args(%t1 = %s1, %t3 = %s3)
      -> (!mem.M<1>, !mem.M<3>) {
    %p = mem.lea %values, %i : !mem.ptr<!mem.array<? x i32>, 1>
    %u1, %v = mem.load %t1, %p : !mem.ptr<i32, 1>
    %bin = arith.index_cast %v : i32 to index
    %slot = mem.lea %local, %bin : !mem.ptr<!mem.array<256 x i32>, 3>
    %u3, %old = mem.atomic_rmw "add" %t3, %slot, %one : !mem.ptr<i32, 3>
    scf.yield %u1, %u3 : !mem.M<1>, !mem.M<3>
  }
  %e1, %e3 = gpu.sync_work_items %r1, %r3
  // add the group's bins to the global ones
  %f3, %count = mem.load %e3, %mine : !mem.ptr<i32, 3>
  %global = mem.lea %bins, %item : !mem.ptr<!mem.array<256 x i32>, 1>
  %f1, %before = mem.atomic_rmw "add" %e1, %global, %count : !mem.ptr<i32, 1>
  func.return %f1, %f3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}

func.func @main(%m: !mem.M<0>, %n: index) -> (!mem.M<0>, i32, i32, i32, i32, i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %c255 = arith.constant 255 : index
  %c256 = arith.constant 256 : index
  %mult = arith.constant 2654435761 : i64
  %mask = arith.constant 255 : i64
  %shift = arith.constant 13 : i64
  %a0, %host = mem.alloc %m, %n : !mem.ptr<!mem.array<? x i32>, 0>
  %b0 = scf.for %k = %c0 to %n step %c1 iter_args(%t = %a0) -> (!mem.M<0>) {
    %k64 = arith.index_cast %k : index to i64
    %h = arith.muli %k64, %mult : i64
    %hs = arith.shrui %h, %shift : i64
    %byte = arith.andi %hs, %mask : i64
    %v = arith.trunci %byte : i64 to i32
    %e = mem.lea %host, %k : !mem.ptr<!mem.array<? x i32>, 0>
    %t2 = mem.store %t, %e, %v : !mem.ptr<i32, 0>
    scf.yield %t2 : !mem.M<0>
  }
  %m0, %m1, %m4 = gpu.init %b0
  %d1, %values = gpu.alloc.block %m1, %n : !mem.ptr<!mem.array<? x i32>, 1>
  %e0, %e1 = gpu.copy_to_device.block %m0, %d1, %host -> %values : !mem.ptr<!mem.array<? x i32>, 0> -> !mem.ptr<!mem.array<? x i32>, 1>
  %f1, %bins = gpu.alloc.block %e1 : !mem.ptr<!mem.array<256 x i32>, 1>
  %stream = gpu.default_stream
  %l0, %l1, %l4 = gpu.launch @histogram grid(%c64, %c256) stream(%stream) mems(%e0, %f1, %m4)
      args(%c256, %n, %values, %bins) : (index, index, !mem.ptr<!mem.array<? x i32>, 1>, !mem.ptr<!mem.array<256 x i32>, 1>)
  %g0, %hbins = mem.alloc %l0 : !mem.ptr<!mem.array<256 x i32>, 0>
  %h0, %h1 = gpu.copy_to_host.block %g0, %l1, %bins -> %hbins : !mem.ptr<!mem.array<256 x i32>, 1> -> !mem.ptr<!mem.array<256 x i32>, 0>
  %zero = arith.constant 0 : i32
  %i0, %total = scf.for %k = %c0 to %c256 step %c1 iter_args(%t = %h0, %acc = %zero) -> (!mem.M<0>, i32) {
    %e = mem.lea %hbins, %k : !mem.ptr<!mem.array<256 x i32>, 0>
    %t2, %x = mem.load %t, %e : !mem.ptr<i32, 0>
    %acc2 = arith.addi %acc, %x : i32
    scf.yield %t2, %acc2 : !mem.M<0>, i32
  }
  %p0 = mem.lea %hbins, %c0 : !mem.ptr<!mem.array<256 x i32>, 0>
  %p1 = mem.lea %hbins, %c1 : !mem.ptr<!mem.array<256 x i32>, 0>
  %p128 = mem.lea %hbins, %c128 : !mem.ptr<!mem.array<256 x i32>, 0>
  %p255 = mem.lea %hbins, %c255 : !mem.ptr<!mem.array<256 x i32>, 0>
  %j0, %x0 = mem.load %i0, %p0 : !mem.ptr<i32, 0>
  %j1, %x1 = mem.load %j0, %p1 : !mem.ptr<i32, 0>
  %j2, %x128 = mem.load %j1, %p128 : !mem.ptr<i32, 0>
  %j3, %x255 = mem.load %j2, %p255 : !mem.ptr<i32, 0>
  %k1 = gpu.free.block %h1, %values : !mem.ptr<!mem.array<? x i32>, 1>
  %k2 = gpu.free.block %k1, %bins : !mem.ptr<!mem.array<256 x i32>, 1>
  %k0 = mem.free %j3, %hbins : !mem.ptr<!mem.array<256 x i32>, 0>
  %kk0 = mem.free %k0, %host : !mem.ptr<!mem.array<? x i32>, 0>
  %done = gpu.deinit %kk0, %k2, %l4
  func.return %done, %x0, %x1, %x128, %x255, %total : !mem.M<0>, i32, i32, i32, i32, i32
}
