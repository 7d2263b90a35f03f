// Barriers in any control flow on the cpu provider (its resumable form), against interp:
// a shared-memory tree sum written as a cf loop with a barrier at its head and a barrier after
// it, an early return of whole work-groups between barriers, a collective in a cf loop, a
// barrier in a branch on the work-item id that every item takes, a barrier in scf.while, and a
// local slot that lives across the barriers of a cf loop. Two groups of 8 items each.
// RUN: gpu-run %s --provider cpu | filecheck %s
// RUN: gpu-run %s --provider interp | filecheck %s
// RUN: env GPUIR_CPU_INDEX_BITWIDTH=32 gpu-run %s --provider cpu | filecheck %s
// CHECK:      tree: 28 0 0 0 0 0 0 0 92 0 0 0 0 0 0 0
// CHECK-NEXT: early: 7 6 5 4 3 2 1 0 -1 -1 -1 -1 -1 -1 -1 -1
// CHECK-NEXT: collective: 108 109 111 114 118 123 129 136 300 301 303 306 310 315 321 328
// CHECK-NEXT: all-take: 1 2 3 4 5 6 7 0 9 10 11 12 13 14 15 8
// CHECK-NEXT: while: 3 3 3 3 3 3 3 3 4 4 4 4 4 4 4 4
// CHECK-NEXT: local: 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15
// CHECK-EMPTY:

// Each group sums its 8 values in shared memory: the stride halves in a cf loop whose head
// waits at a barrier; after the loop, a barrier, and item 0 writes the sum.
func.func @tree(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
                %group: index, %item: index, %in: !mem.ptr<!mem.array<16 x i32>, 1>,
                %out: !mem.ptr<!mem.array<16 x i32>, 1>)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %a3, %sh = mem.slot %m3 : !mem.ptr<!mem.array<8 x i32>, 3>
  %base = arith.muli %group, %c8 : index
  %flat = arith.addi %base, %item : index
  %p = mem.lea %in, %flat : !mem.ptr<!mem.array<16 x i32>, 1>
  %b1, %v = mem.load %m1, %p : !mem.ptr<i32, 1>
  %mine = mem.lea %sh, %item : !mem.ptr<!mem.array<8 x i32>, 3>
  %b3 = mem.store %a3, %mine, %v : !mem.ptr<i32, 3>
  cf.br ^head(%c4, %b1, %b3 : index, !mem.M<1>, !mem.M<3>)
^head(%s: index, %h1: !mem.M<1>, %h3: !mem.M<3>):
  %more = arith.cmpi ugt, %s, %c0 : index
  cf.cond_br %more, ^body, ^exit
^body:
  %s1, %s3 = gpu.sync_work_items %h1, %h3
  %low = arith.cmpi ult, %item, %s : index
  %r3 = scf.if %low -> (!mem.M<3>) {
    %j = arith.addi %item, %s : index
    %pj = mem.lea %sh, %j : !mem.ptr<!mem.array<8 x i32>, 3>
    %t3, %x = mem.load %s3, %pj : !mem.ptr<i32, 3>
    %u3, %y = mem.load %t3, %mine : !mem.ptr<i32, 3>
    %z = arith.addi %x, %y : i32
    %w3 = mem.store %u3, %mine, %z : !mem.ptr<i32, 3>
    scf.yield %w3 : !mem.M<3>
  } else {
    scf.yield %s3 : !mem.M<3>
  }
  %half = arith.shrui %s, %c1 : index
  cf.br ^head(%half, %s1, %r3 : index, !mem.M<1>, !mem.M<3>)
^exit:
  %e1, %e3 = gpu.sync_work_items %h1, %h3
  %first = arith.cmpi eq, %item, %c0 : index
  cf.cond_br %first, ^write, ^done
^write:
  %p0 = mem.lea %sh, %c0 : !mem.ptr<!mem.array<8 x i32>, 3>
  %f3, %total = mem.load %e3, %p0 : !mem.ptr<i32, 3>
  %po = mem.lea %out, %base : !mem.ptr<!mem.array<16 x i32>, 1>
  %f1 = mem.store %e1, %po, %total : !mem.ptr<i32, 1>
  func.return %f1, %f3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
^done:
  func.return %e1, %e3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}

// Items publish their ids, wait, and group 1 returns (all of its items); group 0 waits again
// and each item writes its mirror's id.
func.func @early(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
                 %group: index, %item: index, %out: !mem.ptr<!mem.array<16 x i32>, 1>)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
  %c0 = arith.constant 0 : index
  %c7 = arith.constant 7 : index
  %c8 = arith.constant 8 : index
  %a3, %sh = mem.slot %m3 : !mem.ptr<!mem.array<8 x i32>, 3>
  %mine = mem.lea %sh, %item : !mem.ptr<!mem.array<8 x i32>, 3>
  %id = arith.index_cast %item : index to i32
  %b3 = mem.store %a3, %mine, %id : !mem.ptr<i32, 3>
  %s1, %s3 = gpu.sync_work_items %m1, %b3
  %later = arith.cmpi ne, %group, %c0 : index
  cf.cond_br %later, ^out, ^stay
^out:
  func.return %s1, %s3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
^stay:
  %u1, %u3 = gpu.sync_work_items %s1, %s3
  %mirror = arith.subi %c7, %item : index
  %theirs = mem.lea %sh, %mirror : !mem.ptr<!mem.array<8 x i32>, 3>
  %v3, %v = mem.load %u3, %theirs : !mem.ptr<i32, 3>
  %base = arith.muli %group, %c8 : index
  %flat = arith.addi %base, %item : index
  %po = mem.lea %out, %flat : !mem.ptr<!mem.array<16 x i32>, 1>
  %w1 = mem.store %u1, %po, %v : !mem.ptr<i32, 1>
  func.return %w1, %v3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}

// Three rounds of a cf loop, each adding the group's sum of item + round (a reduction); then
// the inclusive scan of the ids (a scan) is added.
func.func @collective(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
                      %group: index, %item: index, %out: !mem.ptr<!mem.array<16 x i32>, 1>)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant 0 : i32
  %base = arith.muli %group, %c8 : index
  %flat = arith.addi %base, %item : index
  cf.br ^head(%c0, %zero, %m1, %m3 : index, i32, !mem.M<1>, !mem.M<3>)
^head(%k: index, %acc: i32, %h1: !mem.M<1>, %h3: !mem.M<3>):
  %more = arith.cmpi ult, %k, %c3 : index
  cf.cond_br %more, ^body, ^exit
^body:
  %x = arith.addi %flat, %k : index
  %xi = arith.index_cast %x : index to i32
  %r1, %r3, %sum = gpu.workgroup_reduce "add" %h1, %h3, %xi : i32
  %acc2 = arith.addi %acc, %sum : i32
  %k2 = arith.addi %k, %c1 : index
  cf.br ^head(%k2, %acc2, %r1, %r3 : index, i32, !mem.M<1>, !mem.M<3>)
^exit:
  %id = arith.index_cast %item : index to i32
  %e1, %e3, %prefix = gpu.workgroup_scan "add" %h1, %h3, %id : i32
  %total = arith.addi %acc, %prefix : i32
  %po = mem.lea %out, %flat : !mem.ptr<!mem.array<16 x i32>, 1>
  %f1 = mem.store %e1, %po, %total : !mem.ptr<i32, 1>
  func.return %f1, %e3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}

// A barrier under a condition on the work-item id that every item meets: each item writes its
// right neighbour's flat id.
func.func @all_take(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
                    %group: index, %item: index, %out: !mem.ptr<!mem.array<16 x i32>, 1>)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %big = arith.constant 1000 : index
  %a3, %sh = mem.slot %m3 : !mem.ptr<!mem.array<8 x i32>, 3>
  %base = arith.muli %group, %c8 : index
  %flat = arith.addi %base, %item : index
  %id = arith.index_cast %flat : index to i32
  %mine = mem.lea %sh, %item : !mem.ptr<!mem.array<8 x i32>, 3>
  %b3 = mem.store %a3, %mine, %id : !mem.ptr<i32, 3>
  %small = arith.cmpi ult, %item, %big : index
  %r1, %r3 = scf.if %small -> (!mem.M<1>, !mem.M<3>) {
    %s1, %s3 = gpu.sync_work_items %m1, %b3
    scf.yield %s1, %s3 : !mem.M<1>, !mem.M<3>
  } else {
    scf.yield %m1, %b3 : !mem.M<1>, !mem.M<3>
  }
  %next = arith.addi %item, %c1 : index
  %right = arith.remui %next, %c8 : index
  %theirs = mem.lea %sh, %right : !mem.ptr<!mem.array<8 x i32>, 3>
  %v3, %v = mem.load %r3, %theirs : !mem.ptr<i32, 3>
  %po = mem.lea %out, %flat : !mem.ptr<!mem.array<16 x i32>, 1>
  %f1 = mem.store %r1, %po, %v : !mem.ptr<i32, 1>
  func.return %f1, %v3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}

// A barrier in scf.while: group g waits g + 3 times, counting.
func.func @while(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
                 %group: index, %item: index, %out: !mem.ptr<!mem.array<16 x i32>, 1>)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
  %c3 = arith.constant 3 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %limit = arith.addi %group, %c3 : index
  %n = arith.index_cast %limit : index to i32
  %w1, %w3, %count = scf.while (%t1 = %m1, %t3 = %m3, %i = %zero)
      : (!mem.M<1>, !mem.M<3>, i32) -> (!mem.M<1>, !mem.M<3>, i32) {
    %go = arith.cmpi slt, %i, %n : i32
    scf.condition(%go) %t1, %t3, %i : !mem.M<1>, !mem.M<3>, i32
  } do {
  ^bb0(%u1: !mem.M<1>, %u3: !mem.M<3>, %j: i32):
    %s1, %s3 = gpu.sync_work_items %u1, %u3
    %j2 = arith.addi %j, %one : i32
    scf.yield %s1, %s3, %j2 : !mem.M<1>, !mem.M<3>, i32
  }
  %base = arith.muli %group, %c8 : index
  %flat = arith.addi %base, %item : index
  %po = mem.lea %out, %flat : !mem.ptr<!mem.array<16 x i32>, 1>
  %f1 = mem.store %w1, %po, %count : !mem.ptr<i32, 1>
  func.return %f1, %w3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}

// A local slot (space 5) written before a cf loop of barriers and read after it.
func.func @local(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
                 %group: index, %item: index, %out: !mem.ptr<!mem.array<16 x i32>, 1>)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %a5, %slot = mem.slot %m5 : !mem.ptr<i32, 5>
  %base = arith.muli %group, %c8 : index
  %flat = arith.addi %base, %item : index
  %id = arith.index_cast %flat : index to i32
  %b5 = mem.store %a5, %slot, %id : !mem.ptr<i32, 5>
  cf.br ^head(%c0, %m1, %m3 : index, !mem.M<1>, !mem.M<3>)
^head(%k: index, %h1: !mem.M<1>, %h3: !mem.M<3>):
  %more = arith.cmpi ult, %k, %c2 : index
  cf.cond_br %more, ^body, ^exit
^body:
  %s1, %s3 = gpu.sync_work_items %h1, %h3
  %k2 = arith.addi %k, %c1 : index
  cf.br ^head(%k2, %s1, %s3 : index, !mem.M<1>, !mem.M<3>)
^exit:
  %c5, %kept = mem.load %b5, %slot : !mem.ptr<i32, 5>
  %po = mem.lea %out, %flat : !mem.ptr<!mem.array<16 x i32>, 1>
  %f1 = mem.store %h1, %po, %kept : !mem.ptr<i32, 1>
  func.return %f1, %h3, %m4, %c5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}

// Print the 16 values of `out` after `name`.
func.func @show(%m0: !mem.M<0>, %m1: !mem.M<1>, %dev: !mem.ptr<!mem.array<16 x i32>, 1>,
                %host: !mem.ptr<!mem.array<16 x i32>, 0>) -> (!mem.M<0>, !mem.M<1>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %a0, %a1 = gpu.copy_to_host.block %m0, %m1, %dev -> %host : !mem.ptr<!mem.array<16 x i32>, 1> -> !mem.ptr<!mem.array<16 x i32>, 0>
  %b0 = scf.for %k = %c0 to %c16 step %c1 iter_args(%t = %a0) -> (!mem.M<0>) {
    %e = mem.lea %host, %k : !mem.ptr<!mem.array<16 x i32>, 0>
    %t2, %x = mem.load %t, %e : !mem.ptr<i32, 0>
    printf.print_format " {}", %x : i32
    scf.yield %t2 : !mem.M<0>
  }
  printf.print_format "\n"
  func.return %b0, %a1 : !mem.M<0>, !mem.M<1>
}

// Fill `out` with -1.
func.func @clear(%m0: !mem.M<0>, %m1: !mem.M<1>, %dev: !mem.ptr<!mem.array<16 x i32>, 1>,
                 %host: !mem.ptr<!mem.array<16 x i32>, 0>) -> (!mem.M<0>, !mem.M<1>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %minus = arith.constant -1 : i32
  %a0 = scf.for %k = %c0 to %c16 step %c1 iter_args(%t = %m0) -> (!mem.M<0>) {
    %e = mem.lea %host, %k : !mem.ptr<!mem.array<16 x i32>, 0>
    %t2 = mem.store %t, %e, %minus : !mem.ptr<i32, 0>
    scf.yield %t2 : !mem.M<0>
  }
  %b0, %b1 = gpu.copy_to_device.block %a0, %m1, %host -> %dev : !mem.ptr<!mem.array<16 x i32>, 0> -> !mem.ptr<!mem.array<16 x i32>, 1>
  func.return %b0, %b1 : !mem.M<0>, !mem.M<1>
}

func.func @main(%m: !mem.M<0>) -> !mem.M<0> {
  %m0, %m1, %m4 = gpu.init %m
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %stream = gpu.default_stream
  %a0, %host = mem.alloc %m0 : !mem.ptr<!mem.array<16 x i32>, 0>
  %b0 = scf.for %k = %c0 to %c16 step %c1 iter_args(%t = %a0) -> (!mem.M<0>) {
    %e = mem.lea %host, %k : !mem.ptr<!mem.array<16 x i32>, 0>
    %ki = arith.index_cast %k : index to i32
    %t2 = mem.store %t, %e, %ki : !mem.ptr<i32, 0>
    scf.yield %t2 : !mem.M<0>
  }
  %c0_, %c1_, %in = gpu.alloc_copy.block %b0, %m1, %host : !mem.ptr<!mem.array<16 x i32>, 0> -> !mem.ptr<!mem.array<16 x i32>, 1>
  %d1, %out = gpu.alloc.block %c1_ : !mem.ptr<!mem.array<16 x i32>, 1>

  %l0, %l1, %l4 = gpu.launch @tree grid(%c2, %c8) stream(%stream) mems(%c0_, %d1, %m4)
      args(%in, %out) : (!mem.ptr<!mem.array<16 x i32>, 1>, !mem.ptr<!mem.array<16 x i32>, 1>)
  printf.print_format "tree:"
  %n0, %n1 = func.call @show(%l0, %l1, %out, %host) : (!mem.M<0>, !mem.M<1>, !mem.ptr<!mem.array<16 x i32>, 1>, !mem.ptr<!mem.array<16 x i32>, 0>) -> (!mem.M<0>, !mem.M<1>)

  %o0, %o1 = func.call @clear(%n0, %n1, %out, %host) : (!mem.M<0>, !mem.M<1>, !mem.ptr<!mem.array<16 x i32>, 1>, !mem.ptr<!mem.array<16 x i32>, 0>) -> (!mem.M<0>, !mem.M<1>)
  %p0, %p1, %p4 = gpu.launch @early grid(%c2, %c8) stream(%stream) mems(%o0, %o1, %l4)
      args(%out) : (!mem.ptr<!mem.array<16 x i32>, 1>)
  printf.print_format "early:"
  %q0, %q1 = func.call @show(%p0, %p1, %out, %host) : (!mem.M<0>, !mem.M<1>, !mem.ptr<!mem.array<16 x i32>, 1>, !mem.ptr<!mem.array<16 x i32>, 0>) -> (!mem.M<0>, !mem.M<1>)

  %r0, %r1, %r4 = gpu.launch @collective grid(%c2, %c8) stream(%stream) mems(%q0, %q1, %p4)
      args(%out) : (!mem.ptr<!mem.array<16 x i32>, 1>)
  printf.print_format "collective:"
  %s0, %s1 = func.call @show(%r0, %r1, %out, %host) : (!mem.M<0>, !mem.M<1>, !mem.ptr<!mem.array<16 x i32>, 1>, !mem.ptr<!mem.array<16 x i32>, 0>) -> (!mem.M<0>, !mem.M<1>)

  %t0, %t1, %t4 = gpu.launch @all_take grid(%c2, %c8) stream(%stream) mems(%s0, %s1, %r4)
      args(%out) : (!mem.ptr<!mem.array<16 x i32>, 1>)
  printf.print_format "all-take:"
  %u0, %u1 = func.call @show(%t0, %t1, %out, %host) : (!mem.M<0>, !mem.M<1>, !mem.ptr<!mem.array<16 x i32>, 1>, !mem.ptr<!mem.array<16 x i32>, 0>) -> (!mem.M<0>, !mem.M<1>)

  %v0, %v1, %v4 = gpu.launch @while grid(%c2, %c8) stream(%stream) mems(%u0, %u1, %t4)
      args(%out) : (!mem.ptr<!mem.array<16 x i32>, 1>)
  printf.print_format "while:"
  %w0, %w1 = func.call @show(%v0, %v1, %out, %host) : (!mem.M<0>, !mem.M<1>, !mem.ptr<!mem.array<16 x i32>, 1>, !mem.ptr<!mem.array<16 x i32>, 0>) -> (!mem.M<0>, !mem.M<1>)

  %x0, %x1, %x4 = gpu.launch @local grid(%c2, %c8) stream(%stream) mems(%w0, %w1, %v4)
      args(%out) : (!mem.ptr<!mem.array<16 x i32>, 1>)
  printf.print_format "local:"
  %y0, %y1 = func.call @show(%x0, %x1, %out, %host) : (!mem.M<0>, !mem.M<1>, !mem.ptr<!mem.array<16 x i32>, 1>, !mem.ptr<!mem.array<16 x i32>, 0>) -> (!mem.M<0>, !mem.M<1>)

  %z1 = mem.free %y1, %in : !mem.ptr<!mem.array<16 x i32>, 1>
  %zz1 = mem.free %z1, %out : !mem.ptr<!mem.array<16 x i32>, 1>
  %z0 = mem.free %y0, %host : !mem.ptr<!mem.array<16 x i32>, 0>
  %done = gpu.deinit %z0, %zz1, %x4
  func.return %done : !mem.M<0>
}
