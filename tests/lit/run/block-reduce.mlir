// The classic block reduction with warp shuffles: each warp sums its lanes with "down"
// shuffles in an scf.for over the offsets 16, 8, 4, 2, 1; lane 0 of each warp writes the warp's
// sum to shared memory; a barrier; then only the first warp reads the partial sums and reduces
// them the same way, and item 0 writes the group's sum. 3 groups of 200 items (6 full warps and
// one of 8 lanes): group g sums 200 g .. 200 g + 199. A kernel whose warp operations only some
// warps reach, mixed with a barrier of the whole group.
// RUN: gpu-run %s --provider interp | filecheck %s
// RUN: gpu-run %s --provider cpu | filecheck %s
// CHECK:      19900 59900 99900
// CHECK-EMPTY:

func.func @kernel(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
                  %group: index, %item: index, %n_items: index,
                  %out: !mem.ptr<!mem.array<3 x i32>, 1>)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %c31 = arith.constant 31 : index
  %c32 = arith.constant 32 : index
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %w32 = arith.constant 32 : i32
  %a3, %partial = mem.slot %m3 : !mem.ptr<!mem.array<32 x i32>, 3>
  %base = arith.muli %group, %n_items : index
  %flat = arith.addi %base, %item : index
  %x = arith.index_cast %flat : index to i32
  %sixteen = arith.constant 16 : i32
  %r1, %r3, %sum, %o = scf.for %k = %c0 to %c5 step %c1
      iter_args(%t1 = %m1, %t3 = %a3, %acc = %x, %offset = %sixteen)
      -> (!mem.M<1>, !mem.M<3>, i32, i32) {
    %s1, %s3, %got, %ok = gpu.shuffle "down" %t1, %t3, %acc, %offset, %w32 : i32
    %plus = arith.addi %acc, %got : i32
    %next = arith.select %ok, %plus, %acc : i32
    %half = arith.shrui %offset, %one : i32
    scf.yield %s1, %s3, %next, %half : !mem.M<1>, !mem.M<3>, i32, i32
  }
  %lane = gpu.lane_id
  %warp = arith.divui %item, %c32 : index
  %lead = arith.cmpi eq, %lane, %c0 : index
  %b3 = scf.if %lead -> (!mem.M<3>) {
    %p = mem.lea %partial, %warp : !mem.ptr<!mem.array<32 x i32>, 3>
    %t3 = mem.store %r3, %p, %sum : !mem.ptr<i32, 3>
    scf.yield %t3 : !mem.M<3>
  } else {
    scf.yield %r3 : !mem.M<3>
  }
  %e1, %e3 = gpu.sync_work_items %r1, %b3
  %first_warp = arith.cmpi ult, %item, %c32 : index
  %f1, %f3 = scf.if %first_warp -> (!mem.M<1>, !mem.M<3>) {
    %last = arith.addi %n_items, %c31 : index
    %n_warps = arith.divui %last, %c32 : index
    %have = arith.cmpi ult, %lane, %n_warps : index
    %g3, %v = scf.if %have -> (!mem.M<3>, i32) {
      %p = mem.lea %partial, %lane : !mem.ptr<!mem.array<32 x i32>, 3>
      %t3, %w = mem.load %e3, %p : !mem.ptr<i32, 3>
      scf.yield %t3, %w : !mem.M<3>, i32
    } else {
      scf.yield %e3, %zero : !mem.M<3>, i32
    }
    %q1, %q3, %total, %o2 = scf.for %k = %c0 to %c5 step %c1
        iter_args(%t1 = %e1, %t3 = %g3, %acc = %v, %offset = %sixteen)
        -> (!mem.M<1>, !mem.M<3>, i32, i32) {
      %s1, %s3, %got, %ok = gpu.shuffle "down" %t1, %t3, %acc, %offset, %w32 : i32
      %plus = arith.addi %acc, %got : i32
      %next = arith.select %ok, %plus, %acc : i32
      %half = arith.shrui %offset, %one : i32
      scf.yield %s1, %s3, %next, %half : !mem.M<1>, !mem.M<3>, i32, i32
    }
    %is0 = arith.cmpi eq, %item, %c0 : index
    %h1 = scf.if %is0 -> (!mem.M<1>) {
      %po = mem.lea %out, %group : !mem.ptr<!mem.array<3 x i32>, 1>
      %t1 = mem.store %q1, %po, %total : !mem.ptr<i32, 1>
      scf.yield %t1 : !mem.M<1>
    } else {
      scf.yield %q1 : !mem.M<1>
    }
    scf.yield %h1, %q3 : !mem.M<1>, !mem.M<3>
  } else {
    scf.yield %e1, %e3 : !mem.M<1>, !mem.M<3>
  }
  func.return %f1, %f3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}

func.func @main(%m: !mem.M<0>) -> !mem.M<0> {
  %m0, %m1, %m4 = gpu.init %m
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c200 = arith.constant 200 : index
  %stream = gpu.default_stream
  %a1, %out = gpu.alloc.block %m1 : !mem.ptr<!mem.array<3 x i32>, 1>
  %l0, %l1, %l4 = gpu.launch @kernel grid(%c3, %c200) stream(%stream) mems(%m0, %a1, %m4)
      args(%c200, %out) : (index, !mem.ptr<!mem.array<3 x i32>, 1>)
  %h0, %host = mem.alloc %l0 : !mem.ptr<!mem.array<3 x i32>, 0>
  %b0, %b1 = gpu.copy_to_host.block %h0, %l1, %out -> %host : !mem.ptr<!mem.array<3 x i32>, 1> -> !mem.ptr<!mem.array<3 x i32>, 0>
  %p0 = mem.lea %host, %c0 : !mem.ptr<!mem.array<3 x i32>, 0>
  %q0, %v0 = mem.load %b0, %p0 : !mem.ptr<i32, 0>
  %p1 = mem.lea %host, %c1 : !mem.ptr<!mem.array<3 x i32>, 0>
  %q1, %v1 = mem.load %q0, %p1 : !mem.ptr<i32, 0>
  %p2 = mem.lea %host, %c2 : !mem.ptr<!mem.array<3 x i32>, 0>
  %q2, %v2 = mem.load %q1, %p2 : !mem.ptr<i32, 0>
  printf.print_format "{} {} {}\n", %v0 : i32, %v1 : i32, %v2 : i32
  %f1 = gpu.free.block %b1, %out : !mem.ptr<!mem.array<3 x i32>, 1>
  %f0 = mem.free %q2, %host : !mem.ptr<!mem.array<3 x i32>, 0>
  %done = gpu.deinit %f0, %f1, %l4
  func.return %done : !mem.M<0>
}
