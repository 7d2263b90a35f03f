// A barrier that only some work-items reach: the cpu provider runs the kernel in its resumable
// form and reports the divergence when it happens, in interp's words, at the barrier. A barrier
// under a condition that depends on a value loaded from memory runs when every item meets it
// (here the count is 0: no item waits).
// RUN: not gpu-run %s --provider cpu 0 2>&1 | filecheck %s
// RUN: not gpu-run %s --provider interp 0 2>&1 | filecheck %s
// RUN: gpu-run %s --provider cpu 1 2>&1 | filecheck %s --check-prefix=LOADED --allow-empty
// RUN: gpu-run %s --provider interp 1 2>&1 | filecheck %s --check-prefix=LOADED --allow-empty

// CHECK:      cpu-barrier-divergence.mlir:[[#LINE:]]:7: error: barrier divergence in group 0: work-item(s) 0-1 wait at 'gpu.sync_work_items' at {{.*}}cpu-barrier-divergence.mlir:[[#LINE]]:7 (barrier 1 of the group), but work-item(s) 2-3 returned from the kernel after 0 barrier(s), without reaching it
// CHECK-NEXT:       %s1, %s3 = gpu.sync_work_items %m1, %a3
// CHECK-NOT:  Traceback

// LOADED-NOT: error

func.func @divergent(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
                     %group: index, %item: index)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
  %two = arith.constant 2 : index
  %low = arith.cmpi ult, %item, %two : index
  %r1, %r3 = scf.if %low -> (!mem.M<1>, !mem.M<3>) {
      %a3 = mem.remem %m3 : !mem.M<3>
      %s1, %s3 = gpu.sync_work_items %m1, %a3
      scf.yield %s1, %s3 : !mem.M<1>, !mem.M<3>
  } else {
    scf.yield %m1, %m3 : !mem.M<1>, !mem.M<3>
  }
  func.return %r1, %r3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}

func.func @loaded(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
                  %group: index, %item: index, %count: !mem.ptr<index, 1>)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a1, %n = mem.load %m1, %count : !mem.ptr<index, 1>
  %r1, %r3 = scf.for %k = %c0 to %n step %c1 iter_args(%t1 = %a1, %t3 = %m3)
      -> (!mem.M<1>, !mem.M<3>) {
    %s1, %s3 = gpu.sync_work_items %t1, %t3
    scf.yield %s1, %s3 : !mem.M<1>, !mem.M<3>
  }
  func.return %r1, %r3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}

func.func @main(%m: !mem.M<0>, %which: i32) -> !mem.M<0> {
  %m0, %m1, %m4 = gpu.init %m
  %stream = gpu.default_stream
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0 : i32
  %first = arith.cmpi eq, %which, %zero : i32
  %r0, %r1, %r4 = scf.if %first -> (!mem.M<0>, !mem.M<1>, !mem.M<4>) {
    %l0, %l1, %l4 = gpu.launch @divergent grid(%c1, %c4) stream(%stream) mems(%m0, %m1, %m4)
    scf.yield %l0, %l1, %l4 : !mem.M<0>, !mem.M<1>, !mem.M<4>
  } else {
    %a1, %count = gpu.alloc.block %m1 : !mem.ptr<index, 1>
    %l0, %l1, %l4 = gpu.launch @loaded grid(%c1, %c4) stream(%stream) mems(%m0, %a1, %m4)
        args(%count) : (!mem.ptr<index, 1>)
    scf.yield %l0, %l1, %l4 : !mem.M<0>, !mem.M<1>, !mem.M<4>
  }
  %done = gpu.deinit %r0, %r1, %r4
  func.return %done : !mem.M<0>
}
