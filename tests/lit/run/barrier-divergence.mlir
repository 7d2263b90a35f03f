// A planted bug: a barrier inside divergent control flow. Items 0 and 1 sync, items 2 and 3
// skip the barrier and return.
// The group size comes from the command line: a constant one is an error before the run
// (check-barrier-divergence, tests/lit/passes/check-barrier-divergence-invalid.mlir).
// RUN: not gpu-run %s --provider interp 4 2>&1 | filecheck %s
// RUN: not gpu-run %s --provider cpu 4 2>&1 | filecheck %s

// CHECK:      barrier-divergence.mlir:[[#LINE:]]:5: error: barrier divergence in group 0: work-item(s) 0-1 wait at 'gpu.sync_work_items' at {{.*}}barrier-divergence.mlir:[[#LINE]]:5 (barrier 1 of the group), but work-item(s) 2-3 returned from the kernel after 0 barrier(s), without reaching it
// CHECK-NEXT:     %s1, %s3 = gpu.sync_work_items %m1, %a3
// CHECK-NOT:  Traceback

func.func @kernel(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
                  %group: index, %item: index)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
  %a3, %shared = mem.slot %m3 : !mem.ptr<!mem.array<4 x i32>, 3>
  %two = arith.constant 2 : index
  %low = arith.cmpi ult, %item, %two : index
  %r1, %r3 = scf.if %low -> (!mem.M<1>, !mem.M<3>) {
    %s1, %s3 = gpu.sync_work_items %m1, %a3
    scf.yield %s1, %s3 : !mem.M<1>, !mem.M<3>
  } else {
    scf.yield %m1, %a3 : !mem.M<1>, !mem.M<3>
  }
  func.return %r1, %r3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}

func.func @main(%m: !mem.M<0>, %four: index) -> !mem.M<0> {
  %m0, %m1, %m4 = gpu.init %m
  %stream = gpu.default_stream
  %one = arith.constant 1 : index
  %l0, %l1, %l4 = gpu.launch @kernel grid(%one, %four) stream(%stream) mems(%m0, %m1, %m4)
  %done = gpu.deinit %l0, %l1, %l4
  func.return %done : !mem.M<0>
}
