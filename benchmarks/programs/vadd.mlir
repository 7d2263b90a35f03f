func.func @vadd(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
                %g: index, %i: index, %n: index,
                %a: !mem.ptr<!mem.array<? x f32>, 1>, %b: !mem.ptr<!mem.array<? x f32>, 1>,
                %c: !mem.ptr<!mem.array<? x f32>, 1>)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
  %size = arith.constant 256 : index
  %base = arith.muli %g, %size : index
  %k = arith.addi %base, %i : index
  %in = arith.cmpi ult, %k, %n : index
  %r = scf.if %in -> (!mem.M<1>) {
    %pa = mem.lea %a, %k : !mem.ptr<!mem.array<? x f32>, 1>
    %t1, %x = mem.load %m1, %pa : !mem.ptr<f32, 1>
    %pb = mem.lea %b, %k : !mem.ptr<!mem.array<? x f32>, 1>
    %t2, %y = mem.load %t1, %pb : !mem.ptr<f32, 1>
    %s = arith.addf %x, %y : f32
    %pc = mem.lea %c, %k : !mem.ptr<!mem.array<? x f32>, 1>
    %t3 = mem.store %t2, %pc, %s : !mem.ptr<f32, 1>
    scf.yield %t3 : !mem.M<1>
  } else {
    scf.yield %m1 : !mem.M<1>
  }
  func.return %r, %m3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}

func.func @main(%m: !mem.M<0>, %n: index) -> (!mem.M<0>, f64) {
  %m0, %m1, %m4 = gpu.init %m
  %h1, %ha = mem.alloc %m0, %n : !mem.ptr<!mem.array<? x f32>, 0>
  %h2, %hb = mem.alloc %h1, %n : !mem.ptr<!mem.array<? x f32>, 0>
  %h3, %hc = mem.alloc %h2, %n : !mem.ptr<!mem.array<? x f32>, 0>
  %zero = arith.constant 0 : index
  %one = arith.constant 1 : index
  %f = scf.for %k = %zero to %n step %one iter_args(%t = %h3) -> (!mem.M<0>) {
    %ki = arith.index_cast %k : index to i64
    %kf = arith.sitofp %ki : i64 to f32
    %two = arith.constant 2.0 : f32
    %kf2 = arith.mulf %kf, %two : f32
    %pa = mem.lea %ha, %k : !mem.ptr<!mem.array<? x f32>, 0>
    %t1 = mem.store %t, %pa, %kf : !mem.ptr<f32, 0>
    %pb = mem.lea %hb, %k : !mem.ptr<!mem.array<? x f32>, 0>
    %t2 = mem.store %t1, %pb, %kf2 : !mem.ptr<f32, 0>
    scf.yield %t2 : !mem.M<0>
  }
  %d1, %da = gpu.alloc.block %m1, %n : !mem.ptr<!mem.array<? x f32>, 1>
  %d2, %db = gpu.alloc.block %d1, %n : !mem.ptr<!mem.array<? x f32>, 1>
  %d3, %dc = gpu.alloc.block %d2, %n : !mem.ptr<!mem.array<? x f32>, 1>
  %c1, %c2 = gpu.copy_to_device.block %f, %d3, %ha -> %da : !mem.ptr<!mem.array<? x f32>, 0> -> !mem.ptr<!mem.array<? x f32>, 1>
  %c3, %c4 = gpu.copy_to_device.block %c1, %c2, %hb -> %db : !mem.ptr<!mem.array<? x f32>, 0> -> !mem.ptr<!mem.array<? x f32>, 1>
  %stream = gpu.default_stream
  %items = arith.constant 256 : index
  %last = arith.constant 255 : index
  %np = arith.addi %n, %last : index
  %groups = arith.divui %np, %items : index
  %l0, %l1, %l4 = gpu.launch @vadd grid(%groups, %items) stream(%stream)
      mems(%c3, %c4, %m4) args(%n, %da, %db, %dc) : (index, !mem.ptr<!mem.array<? x f32>, 1>, !mem.ptr<!mem.array<? x f32>, 1>, !mem.ptr<!mem.array<? x f32>, 1>)
  %e0, %e1 = gpu.copy_to_host.block %l0, %l1, %dc -> %hc : !mem.ptr<!mem.array<? x f32>, 1> -> !mem.ptr<!mem.array<? x f32>, 0>
  %init = arith.constant 0.0 : f64
  %s0, %sum = scf.for %k = %zero to %n step %one iter_args(%t = %e0, %acc = %init) -> (!mem.M<0>, f64) {
    %pc = mem.lea %hc, %k : !mem.ptr<!mem.array<? x f32>, 0>
    %t1, %x = mem.load %t, %pc : !mem.ptr<f32, 0>
    %xd = arith.extf %x : f32 to f64
    %acc2 = arith.addf %acc, %xd : f64
    scf.yield %t1, %acc2 : !mem.M<0>, f64
  }
  %g1 = gpu.free.block %e1, %da : !mem.ptr<!mem.array<? x f32>, 1>
  %g2 = gpu.free.block %g1, %db : !mem.ptr<!mem.array<? x f32>, 1>
  %g3 = gpu.free.block %g2, %dc : !mem.ptr<!mem.array<? x f32>, 1>
  %q1 = mem.free %s0, %ha : !mem.ptr<!mem.array<? x f32>, 0>
  %q2 = mem.free %q1, %hb : !mem.ptr<!mem.array<? x f32>, 0>
  %q3 = mem.free %q2, %hc : !mem.ptr<!mem.array<? x f32>, 0>
  %done = gpu.deinit %q3, %g3, %l4
  func.return %done, %sum : !mem.M<0>, f64
}
