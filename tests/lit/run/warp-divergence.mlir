// Warp operations that not every lane of a warp reaches. Argument 0 (valid): only the first
// warp of each group shuffles (whole warps skip it: no divergence); it writes its sum. 1: in
// the first warp, only lanes 0-15 shuffle and the others return. 2: lanes 0-15 take a ballot
// while lanes 16-31 wait at a barrier.
// RUN: gpu-run %s --provider interp 0 | filecheck %s --check-prefix=VALID
// RUN: gpu-run %s --provider cpu 0 | filecheck %s --check-prefix=VALID
// RUN: not gpu-run %s --provider interp 1 2>&1 | filecheck %s --check-prefix=RETURN
// RUN: not gpu-run %s --provider cpu 1 2>&1 | filecheck %s --check-prefix=RETURN
// RUN: not gpu-run %s --provider interp 2 2>&1 | filecheck %s --check-prefix=BARRIER
// RUN: not gpu-run %s --provider cpu 2 2>&1 | filecheck %s --check-prefix=BARRIER
// VALID:   496
// RETURN:  warp-divergence.mlir:[[#SHUFFLE:]]:{{[0-9]+}}: error: barrier divergence in group 0: work-item(s) 0-15 wait at 'gpu.shuffle' at {{.*}}warp-divergence.mlir:[[#SHUFFLE]]:{{[0-9]+}} (a warp operation), but work-item(s) 16-31 of the same warp (work-items 0-31) returned from the kernel; every lane of a warp must reach a warp operation together
// BARRIER: error: barrier divergence in group 0: work-item(s) 0-15 wait at 'gpu.ballot' at {{.*}} (a warp operation), but work-item(s) 16-31 of the same warp (work-items 0-31) wait at 'gpu.sync_work_items' at {{.*}}; every lane of a warp must reach a warp operation together

func.func @kernel(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
                  %group: index, %item: index, %how: i32, %out: !mem.ptr<i32, 1>)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %w32 = arith.constant 32 : i32
  %x = arith.index_cast %item : index to i32
  %valid = arith.cmpi eq, %how, %zero : i32
  %ballot = arith.cmpi ugt, %how, %one : i32
  %low = arith.cmpi ult, %item, %c16 : index
  %first_warp = arith.cmpi ult, %item, %c32 : index
  %part = arith.select %valid, %first_warp, %low : i1
  cf.cond_br %part, ^work, ^rest
^work:
  cf.cond_br %ballot, ^vote, ^shuffle
^vote:
  %v1, %v3, %mask = gpu.ballot %m1, %m3, %low
  func.return %v1, %v3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
^shuffle:
  %a1, %a3, %y, %ok = gpu.shuffle "xor" %m1, %m3, %x, %w32, %w32 : i32
  %o16 = arith.constant 16 : i32
  %b1, %b3, %y16, %k16 = gpu.shuffle "xor" %a1, %a3, %x, %o16, %w32 : i32
  %s16 = arith.addi %x, %y16 : i32
  %o8 = arith.constant 8 : i32
  %c1, %c3, %y8, %k8 = gpu.shuffle "xor" %b1, %b3, %s16, %o8, %w32 : i32
  %s8 = arith.addi %s16, %y8 : i32
  %o4 = arith.constant 4 : i32
  %d1, %d3, %y4, %k4 = gpu.shuffle "xor" %c1, %c3, %s8, %o4, %w32 : i32
  %s4 = arith.addi %s8, %y4 : i32
  %o2 = arith.constant 2 : i32
  %e1, %e3, %y2, %k2 = gpu.shuffle "xor" %d1, %d3, %s4, %o2, %w32 : i32
  %s2 = arith.addi %s4, %y2 : i32
  %f1, %f3, %y1, %k1 = gpu.shuffle "xor" %e1, %e3, %s2, %one, %w32 : i32
  %s1 = arith.addi %s2, %y1 : i32
  %is0 = arith.cmpi eq, %item, %c0 : index
  %g0 = arith.cmpi eq, %group, %c0 : index
  %write = arith.andi %is0, %g0 : i1
  cf.cond_br %write, ^store, ^done
^store:
  %h1 = mem.store %f1, %out, %s1 : !mem.ptr<i32, 1>
  func.return %h1, %f3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
^done:
  func.return %f1, %f3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
^rest:
  cf.cond_br %ballot, ^wait, ^leave
^wait:
  %r3 = mem.remem %m3 : !mem.M<3>
  %s1_, %s3_ = gpu.sync_work_items %m1, %r3
  func.return %s1_, %s3_, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
^leave:
  func.return %m1, %m3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}

func.func @main(%m: !mem.M<0>, %how: i32) -> (!mem.M<0>, i32) {
  %m0, %m1, %m4 = gpu.init %m
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %stream = gpu.default_stream
  %a1, %out = gpu.alloc.block %m1 : !mem.ptr<i32, 1>
  %l0, %l1, %l4 = gpu.launch @kernel grid(%c2, %c64) stream(%stream) mems(%m0, %a1, %m4)
      args(%how, %out) : (i32, !mem.ptr<i32, 1>)
  %h0, %host = mem.alloc %l0 : !mem.ptr<i32, 0>
  %b0, %b1 = gpu.copy_to_host.block %h0, %l1, %out -> %host : !mem.ptr<i32, 1> -> !mem.ptr<i32, 0>
  %c0_, %v = mem.load %b0, %host : !mem.ptr<i32, 0>
  %f1 = gpu.free.block %b1, %out : !mem.ptr<i32, 1>
  %f0 = mem.free %c0_, %host : !mem.ptr<i32, 0>
  %done = gpu.deinit %f0, %f1, %l4
  func.return %done, %v : !mem.M<0>, i32
}
