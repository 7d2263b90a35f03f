// RUN: gpu-opt %s -p check-barrier-divergence --split-input-file | filecheck %s
// RUN: gpu-opt %s -p check-barrier-divergence --split-input-file --mlir-pass-statistics -o /dev/null 2>&1 | filecheck %s --check-prefix=STATS

// The statistics of the whole file: the 7 launches of @main's entry blocks checked, 4 kernels
// walked (@divergent's group size is a run-time value once; @calls has no barrier of its own),
// one (@straight) needing no walk.
// STATS:      {{^}}CheckBarrierDivergence
// STATS-NEXT:   (S) 7 num-launches-checked - Number of launches in @main's entry block checked
// STATS-NEXT:   (S) 1 num-launches-uniform - Number of launches whose kernel's barriers no branch decides (not walked)
// STATS-NEXT:   (S) 4 num-launches-walked  - Number of launches whose kernel was walked work-item by work-item

// check-barrier-divergence only reports what it proves; each case here is left to the run (or
// is no divergence at all), and the module is printed as it was.

// A condition on the group id is the same for a group's work-items; one that every work-item
// of the launch meets (4 items, item < 8) parts nobody.
// CHECK-LABEL: func.func @uniform
// CHECK-COUNT-2: gpu.sync_work_items
func.func @uniform(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
                   %group: index, %item: index)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %first = arith.cmpi eq, %group, %c0 : index
  %r1, %r3 = scf.if %first -> (!mem.M<1>, !mem.M<3>) {
    %s1, %s3 = gpu.sync_work_items %m1, %m3
    scf.yield %s1, %s3 : !mem.M<1>, !mem.M<3>
  } else {
    scf.yield %m1, %m3 : !mem.M<1>, !mem.M<3>
  }
  %low = arith.cmpi ult, %item, %c8 : index
  %u1, %u3 = scf.if %low -> (!mem.M<1>, !mem.M<3>) {
    %s1, %s3 = gpu.sync_work_items %r1, %r3
    scf.yield %s1, %s3 : !mem.M<1>, !mem.M<3>
  } else {
    scf.yield %r1, %r3 : !mem.M<1>, !mem.M<3>
  }
  func.return %u1, %u3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}

func.func @main(%m: !mem.M<0>) -> !mem.M<0> {
  %m0, %m1, %m4 = gpu.init %m
  %stream = gpu.default_stream
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %l0, %l1, %l4 = gpu.launch @uniform grid(%c2, %c4) stream(%stream) mems(%m0, %m1, %m4)
  %done = gpu.deinit %l0, %l1, %l4
  func.return %done : !mem.M<0>
}

// -----

// The same divergent kernel three ways the pass cannot know: its bound an argument the host
// reads from @main's parameters, its group size one of them, and a launch under an scf.if of
// the host (it may never run). interp and cpu report it when it happens.
// CHECK-LABEL: func.func @divergent
// CHECK:         gpu.sync_work_items
// CHECK-LABEL: func.func @main
// CHECK-COUNT-3: gpu.launch @divergent
func.func @divergent(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
                     %group: index, %item: index, %bound: index)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
  %low = arith.cmpi ult, %item, %bound : index
  %r1, %r3 = scf.if %low -> (!mem.M<1>, !mem.M<3>) {
    %s1, %s3 = gpu.sync_work_items %m1, %m3
    scf.yield %s1, %s3 : !mem.M<1>, !mem.M<3>
  } else {
    scf.yield %m1, %m3 : !mem.M<1>, !mem.M<3>
  }
  func.return %r1, %r3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}

func.func @main(%m: !mem.M<0>, %bound: index, %items: index, %launch: i1) -> !mem.M<0> {
  %m0, %m1, %m4 = gpu.init %m
  %stream = gpu.default_stream
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %a0, %a1, %a4 = gpu.launch @divergent grid(%c1, %c4) stream(%stream) mems(%m0, %m1, %m4) args(%bound) : (index)
  %b0, %b1, %b4 = gpu.launch @divergent grid(%c1, %items) stream(%stream) mems(%a0, %a1, %a4) args(%c2) : (index)
  %r0, %r1, %r4 = scf.if %launch -> (!mem.M<0>, !mem.M<1>, !mem.M<4>) {
    %l0, %l1, %l4 = gpu.launch @divergent grid(%c1, %c4) stream(%stream) mems(%b0, %b1, %b4) args(%c2) : (index)
    scf.yield %l0, %l1, %l4 : !mem.M<0>, !mem.M<1>, !mem.M<4>
  } else {
    scf.yield %b0, %b1, %b4 : !mem.M<0>, !mem.M<1>, !mem.M<4>
  }
  %done = gpu.deinit %r0, %r1, %r4
  func.return %done : !mem.M<0>
}

// -----

// A condition on a loaded value, and one on a division by a zero the run would fault at: no
// work-item's way is known, so nothing is proven.
// CHECK-LABEL: func.func @unknown
// CHECK-COUNT-2: gpu.sync_work_items
func.func @unknown(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
                   %group: index, %item: index, %flag: !mem.ptr<i1, 1>)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
  %c0 = arith.constant 0 : index
  %a1, %set = mem.load %m1, %flag : !mem.ptr<i1, 1>
  %r1, %r3 = scf.if %set -> (!mem.M<1>, !mem.M<3>) {
    %s1, %s3 = gpu.sync_work_items %a1, %m3
    scf.yield %s1, %s3 : !mem.M<1>, !mem.M<3>
  } else {
    scf.yield %a1, %m3 : !mem.M<1>, !mem.M<3>
  }
  %q = arith.divui %item, %c0 : index
  %zero = arith.cmpi eq, %q, %c0 : index
  %z1, %z3 = scf.if %zero -> (!mem.M<1>, !mem.M<3>) {
    %s1, %s3 = gpu.sync_work_items %r1, %r3
    scf.yield %s1, %s3 : !mem.M<1>, !mem.M<3>
  } else {
    scf.yield %r1, %r3 : !mem.M<1>, !mem.M<3>
  }
  func.return %z1, %z3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}

func.func @main(%m: !mem.M<0>) -> !mem.M<0> {
  %m0, %m1, %m4 = gpu.init %m
  %stream = gpu.default_stream
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %a1, %flag = gpu.alloc.block %m1 : !mem.ptr<i1, 1>
  %l0, %l1, %l4 = gpu.launch @unknown grid(%c1, %c4) stream(%stream) mems(%m0, %a1, %m4) args(%flag) : (!mem.ptr<i1, 1>)
  %done = gpu.deinit %l0, %l1, %l4
  func.return %done : !mem.M<0>
}

// -----

// Unstructured control flow that every work-item of a group takes to the same barriers: a
// leading barrier, a loop written with cf.br / cf.cond_br whose trip count (3) is the same for
// all, then an early return of the items past the element count with no barrier after it.
// CHECK-LABEL: func.func @blocks
// CHECK-COUNT-2: gpu.sync_work_items
func.func @blocks(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
                  %group: index, %item: index, %n: index)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %a1, %a3 = gpu.sync_work_items %m1, %m3
  cf.br ^loop(%c0, %a1, %a3 : index, !mem.M<1>, !mem.M<3>)
^loop(%k: index, %t1: !mem.M<1>, %t3: !mem.M<3>):
  %more = arith.cmpi ult, %k, %c3 : index
  cf.cond_br %more, ^body, ^after
^body:
  %s1, %s3 = gpu.sync_work_items %t1, %t3
  %next = arith.addi %k, %c1 : index
  cf.br ^loop(%next, %s1, %s3 : index, !mem.M<1>, !mem.M<3>)
^after:
  %out = arith.cmpi uge, %item, %n : index
  cf.cond_br %out, ^done, ^work
^work:
  cf.br ^done
^done:
  func.return %t1, %t3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}

func.func @main(%m: !mem.M<0>) -> !mem.M<0> {
  %m0, %m1, %m4 = gpu.init %m
  %stream = gpu.default_stream
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %n = arith.constant 3 : index
  %l0, %l1, %l4 = gpu.launch @blocks grid(%c1, %c4) stream(%stream) mems(%m0, %m1, %m4) args(%n) : (index)
  %done = gpu.deinit %l0, %l1, %l4
  func.return %done : !mem.M<0>
}

// -----

// A call of a function that waits at a barrier: the walk stops there (the barriers a callee
// reaches are the run's to count), so nothing is proven, though only items 0-1 call it.
// CHECK-LABEL: func.func @calls
// CHECK:         func.call @wait
func.func @wait(%m1: !mem.M<1>, %m3: !mem.M<3>) -> (!mem.M<1>, !mem.M<3>) {
  %s1, %s3 = gpu.sync_work_items %m1, %m3
  func.return %s1, %s3 : !mem.M<1>, !mem.M<3>
}

func.func @calls(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
                 %group: index, %item: index)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
  %c2 = arith.constant 2 : index
  %low = arith.cmpi ult, %item, %c2 : index
  %r1, %r3 = scf.if %low -> (!mem.M<1>, !mem.M<3>) {
    %s1, %s3 = func.call @wait(%m1, %m3) : (!mem.M<1>, !mem.M<3>) -> (!mem.M<1>, !mem.M<3>)
    scf.yield %s1, %s3 : !mem.M<1>, !mem.M<3>
  } else {
    scf.yield %m1, %m3 : !mem.M<1>, !mem.M<3>
  }
  func.return %r1, %r3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}

func.func @main(%m: !mem.M<0>) -> !mem.M<0> {
  %m0, %m1, %m4 = gpu.init %m
  %stream = gpu.default_stream
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %l0, %l1, %l4 = gpu.launch @calls grid(%c1, %c4) stream(%stream) mems(%m0, %m1, %m4)
  %done = gpu.deinit %l0, %l1, %l4
  func.return %done : !mem.M<0>
}

// -----

// Barriers that no branch decides (straight-line, and in a synced scope): every work-item
// waits at the same barriers in the same order, so the kernel is not walked (uniform).
// CHECK-LABEL: func.func @straight
// CHECK:         gpu.sync_work_items
func.func @straight(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
                    %group: index, %item: index)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
  %a1, %a3 = gpu.sync_work_items %m1, %m3
  %b1, %b3 = gpu.synced_scope %a1, %a3 {
  ^bb0(%q: !mem.M<1>, %r: !mem.M<3>):
    gpu.yield %q, %r : !mem.M<1>, !mem.M<3>
  }
  func.return %b1, %b3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}

func.func @main(%m: !mem.M<0>) -> !mem.M<0> {
  %m0, %m1, %m4 = gpu.init %m
  %stream = gpu.default_stream
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %l0, %l1, %l4 = gpu.launch @straight grid(%c2, %c64) stream(%stream) mems(%m0, %m1, %m4)
  %done = gpu.deinit %l0, %l1, %l4
  func.return %done : !mem.M<0>
}
