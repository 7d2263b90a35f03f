// An 80-op program for gpu-reduce's goal: host code with allocations, copies, loops and a
// launch, a helper nobody needs, and a kernel with several arith ops, one of them arith.subf.

func.func @scale(%x: f32, %unused: i32) -> f32 {
  %two = arith.constant 2.0 : f32
  %y = arith.mulf %x, %two : f32
  func.return %y : f32
}

func.func @kernel(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
                  %group: index, %item: index,
                  %a: !mem.ptr<!mem.array<64 x f32>, 1>, %b: !mem.ptr<!mem.array<64 x f32>, 1>,
                  %n: index)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
  %size = arith.constant 16 : index
  %base = arith.muli %group, %size : index
  %i = arith.addi %base, %item : index
  %inside = arith.cmpi ult, %i, %n : index
  %two = arith.constant 2 : index
  %twice = arith.muli %i, %two : index
  %below = arith.cmpi ult, %twice, %n : index
  %both = arith.andi %inside, %below : i1
  %r1 = scf.if %both -> (!mem.M<1>) {
    %pa = mem.lea %a, %i : !mem.ptr<!mem.array<64 x f32>, 1>
    %pb = mem.lea %b, %i : !mem.ptr<!mem.array<64 x f32>, 1>
    %t1, %x = mem.load %m1, %pa : !mem.ptr<f32, 1>
    %t2, %y = mem.load %t1, %pb : !mem.ptr<f32, 1>
    %sum = arith.addf %x, %y : f32
    %prod = arith.mulf %sum, %x : f32
    %diff = arith.subf %prod, %y : f32
    %half = arith.constant 0.5 : f32
    %scaled = arith.mulf %diff, %half : f32
    %q = arith.divf %scaled, %y : f32
    %neg = arith.negf %q : f32
    %out = arith.addf %neg, %half : f32
    %sq = arith.mulf %out, %out : f32
    %t3 = mem.store %t2, %pb, %sq : !mem.ptr<f32, 1>
    scf.yield %t3 : !mem.M<1>
  } else {
    scf.yield %m1 : !mem.M<1>
  }
  func.return %r1, %m3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}

func.func @main(%m: !mem.M<0>) -> (!mem.M<0>, f32) {
  %m0, %m1, %m4 = gpu.init %m
  %zero = arith.constant 0 : index
  %one = arith.constant 1 : index
  %n = arith.constant 64 : index
  %h0, %ha = mem.alloc %m0 : !mem.ptr<!mem.array<64 x f32>, 0>
  %h1, %hb = mem.alloc %h0 : !mem.ptr<!mem.array<64 x f32>, 0>
  %fill = scf.for %k = %zero to %n step %one iter_args(%t = %h1) -> (!mem.M<0>) {
    %ki = arith.index_cast %k : index to i32
    %kf = arith.sitofp %ki : i32 to f32
    %pa = mem.lea %ha, %k : !mem.ptr<!mem.array<64 x f32>, 0>
    %pb = mem.lea %hb, %k : !mem.ptr<!mem.array<64 x f32>, 0>
    %t1 = mem.store %t, %pa, %kf : !mem.ptr<f32, 0>
    %three = arith.constant 3.0 : f32
    %kb = arith.addf %kf, %three : f32
    %t2 = mem.store %t1, %pb, %kb : !mem.ptr<f32, 0>
    scf.yield %t2 : !mem.M<0>
  }
  %d0, %scratch = gpu.alloc.block %m1 : !mem.ptr<!mem.array<64 x f32>, 1>
  %d1, %da = gpu.alloc.block %d0 : !mem.ptr<!mem.array<64 x f32>, 1>
  %d2, %db = gpu.alloc.block %d1 : !mem.ptr<!mem.array<64 x f32>, 1>
  %c0, %c1 = gpu.copy_to_device.block %fill, %d2, %ha -> %da
      : !mem.ptr<!mem.array<64 x f32>, 0> -> !mem.ptr<!mem.array<64 x f32>, 1>
  %c2, %c3 = gpu.copy_to_device.block %c0, %c1, %hb -> %db
      : !mem.ptr<!mem.array<64 x f32>, 0> -> !mem.ptr<!mem.array<64 x f32>, 1>
  %stream = gpu.default_stream
  %groups = arith.constant 4 : index
  %items = arith.constant 16 : index
  %l0, %l1, %l4 = gpu.launch @kernel grid(%groups, %items) stream(%stream)
      mems(%c2, %c3, %m4) args(%da, %db, %n)
      : (!mem.ptr<!mem.array<64 x f32>, 1>, !mem.ptr<!mem.array<64 x f32>, 1>, index)
  %b0, %b1 = gpu.copy_to_host.block %l0, %l1, %db -> %hb
      : !mem.ptr<!mem.array<64 x f32>, 1> -> !mem.ptr<!mem.array<64 x f32>, 0>
  %init = arith.constant 0.0 : f32
  %s0, %total = scf.for %k = %zero to %n step %one
      iter_args(%t = %b0, %acc = %init) -> (!mem.M<0>, f32) {
    %pb = mem.lea %hb, %k : !mem.ptr<!mem.array<64 x f32>, 0>
    %t1, %v = mem.load %t, %pb : !mem.ptr<f32, 0>
    %acc1 = arith.addf %acc, %v : f32
    scf.yield %t1, %acc1 : !mem.M<0>, f32
  }
  %s1, %top = scf.for %k = %zero to %n step %one
      iter_args(%t = %s0, %acc = %init) -> (!mem.M<0>, f32) {
    %pa = mem.lea %ha, %k : !mem.ptr<!mem.array<64 x f32>, 0>
    %t1, %v = mem.load %t, %pa : !mem.ptr<f32, 0>
    %acc1 = arith.maximumf %acc, %v : f32
    scf.yield %t1, %acc1 : !mem.M<0>, f32
  }
  %seven = arith.constant 7 : i32
  %scaled = func.call @scale(%total, %seven) : (f32, i32) -> f32
  %result = arith.addf %scaled, %top : f32
  %f0 = gpu.free.block %b1, %scratch : !mem.ptr<!mem.array<64 x f32>, 1>
  %f1 = gpu.free.block %f0, %da : !mem.ptr<!mem.array<64 x f32>, 1>
  %f2 = gpu.free.block %f1, %db : !mem.ptr<!mem.array<64 x f32>, 1>
  %f3 = mem.free %s1, %ha : !mem.ptr<!mem.array<64 x f32>, 0>
  %f4 = mem.free %f3, %hb : !mem.ptr<!mem.array<64 x f32>, 0>
  %done = gpu.deinit %f4, %f2, %l4
  func.return %done, %result : !mem.M<0>, f32
}
