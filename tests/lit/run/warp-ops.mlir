// Warp operations: 2 groups of 48 work-items, so each group has a full warp (lanes 0-31) and a
// partial one (16 lanes). Each item reduces its flat id across its warp with xor shuffles
// (a lane whose source does not exist keeps its value), shifts with up/down, reads lane 3 with
// idx in segments of 8, and takes a ballot of "my id is odd". Lane 0 of each warp writes the
// sum and the ballot; every item writes what up, down and idx gave it.
// RUN: gpu-run %s --provider interp | filecheck %s
// RUN: gpu-run %s --provider cpu | filecheck %s
// CHECK:      sums: 496 632 2032 1400
// CHECK-NEXT: ballots: -1431655766 43690 -1431655766 43690
// CHECK-NEXT: up: 0 0 1 2 3 4 5 6
// CHECK-NEXT: down: 1 2 3 4 5 6 7 8
// CHECK-NEXT: idx: 3 3 3 3 3 3 3 3
// CHECK-NEXT: last: 95 94 83 95
// CHECK-EMPTY:

func.func @kernel(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
                  %group: index, %item: index, %n_items: index,
                  %sums: !mem.ptr<!mem.array<8 x i32>, 1>, %shifts: !mem.ptr<!mem.array<288 x i32>, 1>)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c32 = arith.constant 32 : index
  %c96 = arith.constant 96 : index
  %c192 = arith.constant 192 : index
  %w32 = arith.constant 32 : i32
  %w8 = arith.constant 8 : i32
  %base = arith.muli %group, %n_items : index
  %flat = arith.addi %base, %item : index
  %v0 = arith.index_cast %flat : index to i32
  %o16 = arith.constant 16 : i32
  %o8 = arith.constant 8 : i32
  %o4 = arith.constant 4 : i32
  %o2 = arith.constant 2 : i32
  %o1 = arith.constant 1 : i32
  %o3 = arith.constant 3 : i32
  %a1, %a3, %x16, %k16 = gpu.shuffle "xor" %m1, %m3, %v0, %o16, %w32 : i32
  %s16 = arith.addi %v0, %x16 : i32
  %v16 = arith.select %k16, %s16, %v0 : i32
  %b1, %b3, %x8, %k8 = gpu.shuffle "xor" %a1, %a3, %v16, %o8, %w32 : i32
  %s8 = arith.addi %v16, %x8 : i32
  %v8 = arith.select %k8, %s8, %v16 : i32
  %c1_, %c3_, %x4, %k4 = gpu.shuffle "xor" %b1, %b3, %v8, %o4, %w32 : i32
  %s4 = arith.addi %v8, %x4 : i32
  %v4 = arith.select %k4, %s4, %v8 : i32
  %d1, %d3, %x2, %k2 = gpu.shuffle "xor" %c1_, %c3_, %v4, %o2, %w32 : i32
  %s2 = arith.addi %v4, %x2 : i32
  %v2 = arith.select %k2, %s2, %v4 : i32
  %e1, %e3, %x1, %k1 = gpu.shuffle "xor" %d1, %d3, %v2, %o1, %w32 : i32
  %s1 = arith.addi %v2, %x1 : i32
  %sum = arith.select %k1, %s1, %v2 : i32
  %one = arith.constant 1 : i32
  %low = arith.andi %v0, %one : i32
  %isodd = arith.cmpi eq, %low, %one : i32
  %f1, %f3, %ballot = gpu.ballot %e1, %e3, %isodd
  %g1, %g3, %up, %ku = gpu.shuffle "up" %f1, %f3, %v0, %o1, %w32 : i32
  %h1, %h3, %down, %kd = gpu.shuffle "down" %g1, %g3, %v0, %o1, %w32 : i32
  %i1, %i3, %at3, %ki = gpu.shuffle "idx" %h1, %h3, %v0, %o3, %w8 : i32
  %lane = gpu.lane_id
  %first = arith.cmpi eq, %lane, %c0 : index
  %in_group = arith.divui %item, %c32 : index
  %group2 = arith.muli %group, %c2 : index
  %warp = arith.addi %group2, %in_group : index
  %j1 = scf.if %first -> (!mem.M<1>) {
    %ps = mem.lea %sums, %warp : !mem.ptr<!mem.array<8 x i32>, 1>
    %t1 = mem.store %i1, %ps, %sum : !mem.ptr<i32, 1>
    %at = arith.addi %warp, %c3 : index
    %at2 = arith.addi %at, %c1 : index
    %pb = mem.lea %sums, %at2 : !mem.ptr<!mem.array<8 x i32>, 1>
    %t2 = mem.store %t1, %pb, %ballot : !mem.ptr<i32, 1>
    scf.yield %t2 : !mem.M<1>
  } else {
    scf.yield %i1 : !mem.M<1>
  }
  %pu = mem.lea %shifts, %flat : !mem.ptr<!mem.array<288 x i32>, 1>
  %k1_ = mem.store %j1, %pu, %up : !mem.ptr<i32, 1>
  %fd = arith.addi %flat, %c96 : index
  %pd = mem.lea %shifts, %fd : !mem.ptr<!mem.array<288 x i32>, 1>
  %l1 = mem.store %k1_, %pd, %down : !mem.ptr<i32, 1>
  %fi = arith.addi %flat, %c192 : index
  %pi = mem.lea %shifts, %fi : !mem.ptr<!mem.array<288 x i32>, 1>
  %n1 = mem.store %l1, %pi, %at3 : !mem.ptr<i32, 1>
  func.return %n1, %i3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}

func.func @main(%m: !mem.M<0>) -> !mem.M<0> {
  %m0, %m1, %m4 = gpu.init %m
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c48 = arith.constant 48 : index
  %c96 = arith.constant 96 : index
  %c192 = arith.constant 192 : index
  %stream = gpu.default_stream
  %a1, %sums = gpu.alloc.block %m1 : !mem.ptr<!mem.array<8 x i32>, 1>
  %b1, %shifts = gpu.alloc.block %a1 : !mem.ptr<!mem.array<288 x i32>, 1>
  %l0, %l1, %l4 = gpu.launch @kernel grid(%c2, %c48) stream(%stream) mems(%m0, %b1, %m4)
      args(%c48, %sums, %shifts) : (index, !mem.ptr<!mem.array<8 x i32>, 1>, !mem.ptr<!mem.array<288 x i32>, 1>)
  %h0, %hs = mem.alloc %l0 : !mem.ptr<!mem.array<8 x i32>, 0>
  %i0, %hh = mem.alloc %h0 : !mem.ptr<!mem.array<288 x i32>, 0>
  %j0, %j1 = gpu.copy_to_host.block %i0, %l1, %sums -> %hs : !mem.ptr<!mem.array<8 x i32>, 1> -> !mem.ptr<!mem.array<8 x i32>, 0>
  %k0, %k1 = gpu.copy_to_host.block %j0, %j1, %shifts -> %hh : !mem.ptr<!mem.array<288 x i32>, 1> -> !mem.ptr<!mem.array<288 x i32>, 0>
  printf.print_format "sums:"
  %n0 = scf.for %k = %c0 to %c4 step %c1 iter_args(%t = %k0) -> (!mem.M<0>) {
    %e = mem.lea %hs, %k : !mem.ptr<!mem.array<8 x i32>, 0>
    %t2, %x = mem.load %t, %e : !mem.ptr<i32, 0>
    printf.print_format " {}", %x : i32
    scf.yield %t2 : !mem.M<0>
  }
  printf.print_format "\nballots:"
  %o0 = scf.for %k = %c4 to %c8 step %c1 iter_args(%t = %n0) -> (!mem.M<0>) {
    %e = mem.lea %hs, %k : !mem.ptr<!mem.array<8 x i32>, 0>
    %t2, %x = mem.load %t, %e : !mem.ptr<i32, 0>
    printf.print_format " {}", %x : i32
    scf.yield %t2 : !mem.M<0>
  }
  printf.print_format "\nup:"
  %p0 = scf.for %k = %c0 to %c8 step %c1 iter_args(%t = %o0) -> (!mem.M<0>) {
    %e = mem.lea %hh, %k : !mem.ptr<!mem.array<288 x i32>, 0>
    %t2, %x = mem.load %t, %e : !mem.ptr<i32, 0>
    printf.print_format " {}", %x : i32
    scf.yield %t2 : !mem.M<0>
  }
  printf.print_format "\ndown:"
  %q0 = scf.for %k = %c96 to %c192 step %c1 iter_args(%t = %p0) -> (!mem.M<0>) {
    %e = mem.lea %hh, %k : !mem.ptr<!mem.array<288 x i32>, 0>
    %t2, %x = mem.load %t, %e : !mem.ptr<i32, 0>
    %c104 = arith.constant 104 : index
    %show = arith.cmpi ult, %k, %c104 : index
    scf.if %show {
      printf.print_format " {}", %x : i32
    }
    scf.yield %t2 : !mem.M<0>
  }
  printf.print_format "\nidx:"
  %c200 = arith.constant 200 : index
  %r0 = scf.for %k = %c192 to %c200 step %c1 iter_args(%t = %q0) -> (!mem.M<0>) {
    %e = mem.lea %hh, %k : !mem.ptr<!mem.array<288 x i32>, 0>
    %t2, %x = mem.load %t, %e : !mem.ptr<i32, 0>
    printf.print_format " {}", %x : i32
    scf.yield %t2 : !mem.M<0>
  }
  printf.print_format "\nlast:"
  %i191 = arith.constant 191 : index
  %i95 = arith.constant 95 : index
  %i276 = arith.constant 276 : index
  %i190 = arith.constant 190 : index
  %p1 = mem.lea %hh, %i191 : !mem.ptr<!mem.array<288 x i32>, 0>
  %s0, %y1 = mem.load %r0, %p1 : !mem.ptr<i32, 0>
  %p2 = mem.lea %hh, %i95 : !mem.ptr<!mem.array<288 x i32>, 0>
  %s1, %y2 = mem.load %s0, %p2 : !mem.ptr<i32, 0>
  %p3 = mem.lea %hh, %i276 : !mem.ptr<!mem.array<288 x i32>, 0>
  %s2, %y3 = mem.load %s1, %p3 : !mem.ptr<i32, 0>
  %p4 = mem.lea %hh, %i190 : !mem.ptr<!mem.array<288 x i32>, 0>
  %s3, %y4 = mem.load %s2, %p4 : !mem.ptr<i32, 0>
  printf.print_format " {} {} {} {}\n", %y1 : i32, %y2 : i32, %y3 : i32, %y4 : i32
  %f1 = gpu.free.block %k1, %sums : !mem.ptr<!mem.array<8 x i32>, 1>
  %f2 = gpu.free.block %f1, %shifts : !mem.ptr<!mem.array<288 x i32>, 1>
  %g0 = mem.free %s3, %hs : !mem.ptr<!mem.array<8 x i32>, 0>
  %g1 = mem.free %g0, %hh : !mem.ptr<!mem.array<288 x i32>, 0>
  %done = gpu.deinit %g1, %f2, %l4
  func.return %done : !mem.M<0>
}
