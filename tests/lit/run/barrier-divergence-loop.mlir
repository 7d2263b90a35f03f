// Barrier divergence by trip count: item i runs a loop with a barrier i + 1 times. All four
// pass the first barrier together; at the second, item 0 has returned.
// The group size comes from the command line: a constant one is an error before the run
// (check-barrier-divergence, tests/lit/passes/check-barrier-divergence-invalid.mlir).
// RUN: not gpu-run %s --provider interp 4 2>&1 | filecheck %s
// RUN: not gpu-run %s --provider cpu 4 2>&1 | filecheck %s

// CHECK:      error: barrier divergence in group 1: work-item(s) 1-3 wait at 'gpu.sync_work_items' at {{.*}}barrier-divergence-loop.mlir:22:5 (barrier 2 of the group), but work-item(s) 0 returned from the kernel after 1 barrier(s), without reaching it

func.func @kernel(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
                  %group: index, %item: index)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
  %a3, %shared = mem.slot %m3 : !mem.ptr<!mem.array<4 x i32>, 3>
  %zero = arith.constant 0 : index
  %one = arith.constant 1 : index
  %trips = arith.addi %item, %one : index
  // Group 0 only waits at its first barrier, so that group 1 is where it goes wrong.
  %group_is_0 = arith.cmpi eq, %group, %zero : index
  %bound = arith.select %group_is_0, %one, %trips : index
  %r1, %r3 = scf.for %i = %zero to %bound step %one
      iter_args(%t1 = %m1, %t3 = %a3) -> (!mem.M<1>, !mem.M<3>) {
    %s1, %s3 = gpu.sync_work_items %t1, %t3
    scf.yield %s1, %s3 : !mem.M<1>, !mem.M<3>
  }
  func.return %r1, %r3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}

func.func @main(%m: !mem.M<0>, %four: index) -> !mem.M<0> {
  %m0, %m1, %m4 = gpu.init %m
  %stream = gpu.default_stream
  %two = arith.constant 2 : index
  %l0, %l1, %l4 = gpu.launch @kernel grid(%two, %four) stream(%stream) mems(%m0, %m1, %m4)
  %done = gpu.deinit %l0, %l1, %l4
  func.return %done : !mem.M<0>
}
