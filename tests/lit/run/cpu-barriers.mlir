// Work-item loops around barriers on the cpu provider, against interp: barriers inside a uniform
// scf.for (a shared-memory tree sum whose stride the loop carries), a per-item value carried
// around a loop with barriers, a barrier in an scf.if on the group id whose result varies
// between the items, and a local slot (space 5) that lives across a barrier.
// RUN: gpu-run %s --provider cpu | filecheck %s
// RUN: gpu-run %s --provider interp | filecheck %s
// CHECK:      sums: 28.0 92.0
// CHECK-NEXT: carried: 4 8 8 4 8 12 12 8
// CHECK-NEXT: branch: 0 1 2 3 8 9 10 11
// CHECK-NEXT: local: 3 0 1 2 7 4 5 6
// CHECK-EMPTY:
// A shared-memory tree sum: barriers inside a uniform scf.for whose stride is a uniform value
// carried by the loop; item 0 writes the group's sum.
func.func @tree_sum(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
                    %group: index, %item: index, %in: !mem.ptr<!mem.array<16 x f32>, 1>,
                    %out: !mem.ptr<!mem.array<2 x f32>, 1>)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %a3, %sh = mem.slot %m3 : !mem.ptr<!mem.array<8 x f32>, 3>
  %base = arith.muli %group, %c8 : index
  %i = arith.addi %base, %item : index
  %p = mem.lea %in, %i : !mem.ptr<!mem.array<16 x f32>, 1>
  %a1, %x = mem.load %m1, %p : !mem.ptr<f32, 1>
  %mine = mem.lea %sh, %item : !mem.ptr<!mem.array<8 x f32>, 3>
  %b3 = mem.store %a3, %mine, %x : !mem.ptr<f32, 3>
  %s1, %s3 = gpu.sync_work_items %a1, %b3
  %r1, %r3, %stride = scf.for %k = %c0 to %c3 step %c1 iter_args(%t1 = %s1, %t3 = %s3, %st = %c4)
      -> (!mem.M<1>, !mem.M<3>, index) {
    %active = arith.cmpi ult, %item, %st : index
    %u3 = scf.if %active -> (!mem.M<3>) {
      %other = arith.addi %item, %st : index
      %po = mem.lea %sh, %other : !mem.ptr<!mem.array<8 x f32>, 3>
      %v3, %a = mem.load %t3, %mine : !mem.ptr<f32, 3>
      %w3, %b = mem.load %v3, %po : !mem.ptr<f32, 3>
      %sum = arith.addf %a, %b : f32
      %x3 = mem.store %w3, %mine, %sum : !mem.ptr<f32, 3>
      scf.yield %x3 : !mem.M<3>
    } else {
      scf.yield %t3 : !mem.M<3>
    }
    %y1, %y3 = gpu.sync_work_items %t1, %u3
    %half = arith.divui %st, %c2 : index
    scf.yield %y1, %y3, %half : !mem.M<1>, !mem.M<3>, index
  }
  %first = arith.cmpi eq, %item, %c0 : index
  %f1 = scf.if %first -> (!mem.M<1>) {
    %p0 = mem.lea %sh, %c0 : !mem.ptr<!mem.array<8 x f32>, 3>
    %z3, %total = mem.load %r3, %p0 : !mem.ptr<f32, 3>
    %po = mem.lea %out, %group : !mem.ptr<!mem.array<2 x f32>, 1>
    %z1 = mem.store %r1, %po, %total : !mem.ptr<f32, 1>
    scf.yield %z1 : !mem.M<1>
  } else {
    scf.yield %r1 : !mem.M<1>
  }
  func.return %f1, %r3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}

// A varying value carried around a loop with barriers: each round, every item publishes its
// value in shared memory and adds its right neighbour's (4 rounds, 4 items per group).
func.func @carried(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
                   %group: index, %item: index, %out: !mem.ptr<!mem.array<8 x i32>, 1>)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %a3, %sh = mem.slot %m3 : !mem.ptr<!mem.array<4 x i32>, 3>
  %id = arith.index_cast %item : index to i32
  %g = arith.index_cast %group : index to i32
  %start = arith.addi %id, %g : i32
  %mine = mem.lea %sh, %item : !mem.ptr<!mem.array<4 x i32>, 3>
  %next = arith.addi %item, %c1 : index
  %right = arith.remui %next, %c4 : index
  %theirs = mem.lea %sh, %right : !mem.ptr<!mem.array<4 x i32>, 3>
  %r1, %r3, %acc = scf.for %k = %c0 to %c2 step %c1 iter_args(%t1 = %m1, %t3 = %a3, %v = %start)
      -> (!mem.M<1>, !mem.M<3>, i32) {
    %b3 = mem.store %t3, %mine, %v : !mem.ptr<i32, 3>
    %s1, %s3 = gpu.sync_work_items %t1, %b3
    %c3, %n = mem.load %s3, %theirs : !mem.ptr<i32, 3>
    %u1, %u3 = gpu.sync_work_items %s1, %c3
    %w = arith.addi %v, %n : i32
    scf.yield %u1, %u3, %w : !mem.M<1>, !mem.M<3>, i32
  }
  %base = arith.muli %group, %c4 : index
  %flat = arith.addi %base, %item : index
  %po = mem.lea %out, %flat : !mem.ptr<!mem.array<8 x i32>, 1>
  %f1 = mem.store %r1, %po, %acc : !mem.ptr<i32, 1>
  func.return %f1, %r3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}

// A barrier in an scf.if on the group id (uniform) whose result varies between the items.
func.func @branch(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
                  %group: index, %item: index, %out: !mem.ptr<!mem.array<8 x index>, 1>)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %odd = arith.cmpi ne, %group, %c0 : index
  %r1, %r3, %v = scf.if %odd -> (!mem.M<1>, !mem.M<3>, index) {
    %s1, %s3 = gpu.sync_work_items %m1, %m3
    %w = arith.addi %item, %c8 : index
    scf.yield %s1, %s3, %w : !mem.M<1>, !mem.M<3>, index
  } else {
    scf.yield %m1, %m3, %item : !mem.M<1>, !mem.M<3>, index
  }
  %base = arith.muli %group, %c4 : index
  %flat = arith.addi %base, %item : index
  %po = mem.lea %out, %flat : !mem.ptr<!mem.array<8 x index>, 1>
  %f1 = mem.store %r1, %po, %v : !mem.ptr<index, 1>
  func.return %f1, %r3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}

// A local slot (address space 5) written before a barrier and read after it: each work-item
// keeps its own. Items exchange their ids through shared memory in between.
func.func @local(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
                 %group: index, %item: index, %out: !mem.ptr<!mem.array<8 x i32>, 1>)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %a5, %slot = mem.slot %m5 : !mem.ptr<i32, 5>
  %a3, %sh = mem.slot %m3 : !mem.ptr<!mem.array<4 x i32>, 3>
  %base = arith.muli %group, %c4 : index
  %flat = arith.addi %base, %item : index
  %id = arith.index_cast %flat : index to i32
  %mine = mem.lea %sh, %item : !mem.ptr<!mem.array<4 x i32>, 3>
  %b3 = mem.store %a3, %mine, %id : !mem.ptr<i32, 3>
  %s1, %s3 = gpu.sync_work_items %m1, %b3
  %prev = arith.addi %item, %c3 : index
  %left = arith.remui %prev, %c4 : index
  %theirs = mem.lea %sh, %left : !mem.ptr<!mem.array<4 x i32>, 3>
  %c3t, %v = mem.load %s3, %theirs : !mem.ptr<i32, 3>
  %b5 = mem.store %a5, %slot, %v : !mem.ptr<i32, 5>
  %u1, %u3 = gpu.sync_work_items %s1, %c3t
  %c5, %kept = mem.load %b5, %slot : !mem.ptr<i32, 5>
  %po = mem.lea %out, %flat : !mem.ptr<!mem.array<8 x i32>, 1>
  %f1 = mem.store %u1, %po, %kept : !mem.ptr<i32, 1>
  func.return %f1, %u3, %m4, %c5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}

func.func @main(%m: !mem.M<0>) -> !mem.M<0> {
  %m0, %m1, %m4 = gpu.init %m
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %stream = gpu.default_stream
  %a0, %hin = mem.alloc %m0 : !mem.ptr<!mem.array<16 x f32>, 0>
  %b0 = scf.for %k = %c0 to %c16 step %c1 iter_args(%t = %a0) -> (!mem.M<0>) {
    %e = mem.lea %hin, %k : !mem.ptr<!mem.array<16 x f32>, 0>
    %ki = arith.index_cast %k : index to i32
    %kf = arith.sitofp %ki : i32 to f32
    %t2 = mem.store %t, %e, %kf : !mem.ptr<f32, 0>
    scf.yield %t2 : !mem.M<0>
  }
  %c0_, %c1_, %din = gpu.alloc_copy.block %b0, %m1, %hin : !mem.ptr<!mem.array<16 x f32>, 0> -> !mem.ptr<!mem.array<16 x f32>, 1>
  %d1, %dsum = gpu.alloc.block %c1_ : !mem.ptr<!mem.array<2 x f32>, 1>
  %l0, %l1, %l4 = gpu.launch @tree_sum grid(%c2, %c8) stream(%stream) mems(%c0_, %d1, %m4)
      args(%din, %dsum) : (!mem.ptr<!mem.array<16 x f32>, 1>, !mem.ptr<!mem.array<2 x f32>, 1>)
  %e0, %hsum = mem.alloc %l0 : !mem.ptr<!mem.array<2 x f32>, 0>
  %f0, %f1 = gpu.copy_to_host.block %e0, %l1, %dsum -> %hsum : !mem.ptr<!mem.array<2 x f32>, 1> -> !mem.ptr<!mem.array<2 x f32>, 0>
  printf.print_format "sums:"
  %g0 = scf.for %k = %c0 to %c2 step %c1 iter_args(%t = %f0) -> (!mem.M<0>) {
    %e = mem.lea %hsum, %k : !mem.ptr<!mem.array<2 x f32>, 0>
    %t2, %x = mem.load %t, %e : !mem.ptr<f32, 0>
    printf.print_format " {}", %x : f32
    scf.yield %t2 : !mem.M<0>
  }
  printf.print_format "\n"

  %h1, %dint = gpu.alloc.block %f1 : !mem.ptr<!mem.array<8 x i32>, 1>
  %h0, %hint = mem.alloc %g0 : !mem.ptr<!mem.array<8 x i32>, 0>
  %i0, %i1, %i4 = gpu.launch @carried grid(%c2, %c4) stream(%stream) mems(%h0, %h1, %l4)
      args(%dint) : (!mem.ptr<!mem.array<8 x i32>, 1>)
  %j0, %j1 = gpu.copy_to_host.block %i0, %i1, %dint -> %hint : !mem.ptr<!mem.array<8 x i32>, 1> -> !mem.ptr<!mem.array<8 x i32>, 0>
  printf.print_format "carried:"
  %k0 = scf.for %k = %c0 to %c8 step %c1 iter_args(%t = %j0) -> (!mem.M<0>) {
    %e = mem.lea %hint, %k : !mem.ptr<!mem.array<8 x i32>, 0>
    %t2, %x = mem.load %t, %e : !mem.ptr<i32, 0>
    printf.print_format " {}", %x : i32
    scf.yield %t2 : !mem.M<0>
  }
  printf.print_format "\n"

  %n1, %didx = gpu.alloc.block %j1 : !mem.ptr<!mem.array<8 x index>, 1>
  %n0, %hidx = mem.alloc %k0 : !mem.ptr<!mem.array<8 x index>, 0>
  %o0, %o1, %o4 = gpu.launch @branch grid(%c2, %c4) stream(%stream) mems(%n0, %n1, %i4)
      args(%didx) : (!mem.ptr<!mem.array<8 x index>, 1>)
  %p0, %p1 = gpu.copy_to_host.block %o0, %o1, %didx -> %hidx : !mem.ptr<!mem.array<8 x index>, 1> -> !mem.ptr<!mem.array<8 x index>, 0>
  printf.print_format "branch:"
  %q0 = scf.for %k = %c0 to %c8 step %c1 iter_args(%t = %p0) -> (!mem.M<0>) {
    %e = mem.lea %hidx, %k : !mem.ptr<!mem.array<8 x index>, 0>
    %t2, %x = mem.load %t, %e : !mem.ptr<index, 0>
    printf.print_format " {}", %x : index
    scf.yield %t2 : !mem.M<0>
  }
  printf.print_format "\n"

  %r0, %r1, %r4 = gpu.launch @local grid(%c2, %c4) stream(%stream) mems(%q0, %p1, %o4)
      args(%dint) : (!mem.ptr<!mem.array<8 x i32>, 1>)
  %s0, %s1 = gpu.copy_to_host.block %r0, %r1, %dint -> %hint : !mem.ptr<!mem.array<8 x i32>, 1> -> !mem.ptr<!mem.array<8 x i32>, 0>
  printf.print_format "local:"
  %u0 = scf.for %k = %c0 to %c8 step %c1 iter_args(%t = %s0) -> (!mem.M<0>) {
    %e = mem.lea %hint, %k : !mem.ptr<!mem.array<8 x i32>, 0>
    %t2, %x = mem.load %t, %e : !mem.ptr<i32, 0>
    printf.print_format " {}", %x : i32
    scf.yield %t2 : !mem.M<0>
  }
  printf.print_format "\n"
  %done = gpu.deinit %u0, %s1, %r4
  func.return %done : !mem.M<0>
}
