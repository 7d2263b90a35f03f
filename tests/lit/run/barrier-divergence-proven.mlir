// The kernel of barrier-divergence.mlir launched with a constant group size: gpu-run's
// pipeline (check-barrier-divergence) proves the divergence before anything runs, on every
// provider.
// RUN: not gpu-run %s --provider interp 2>&1 | filecheck %s
// RUN: not gpu-run %s --provider cpu 2>&1 | filecheck %s

// CHECK:      barrier-divergence-proven.mlir:18:5: error: barrier divergence: in every work-group of the launch of @kernel at {{.*}}barrier-divergence-proven.mlir:31:3 (4 work-items per group), work-item(s) 0-1 reach this barrier as their barrier 1, and work-item(s) 2-3 return from the kernel after 0 barrier(s): their ways part at 'scf.if' at {{.*}}barrier-divergence-proven.mlir:17:3; every work-item of a group must reach the same barriers
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

func.func @main(%m: !mem.M<0>) -> !mem.M<0> {
  %m0, %m1, %m4 = gpu.init %m
  %stream = gpu.default_stream
  %one = arith.constant 1 : index
  %four = arith.constant 4 : index
  %l0, %l1, %l4 = gpu.launch @kernel grid(%one, %four) stream(%stream) mems(%m0, %m1, %m4)
  %done = gpu.deinit %l0, %l1, %l4
  func.return %done : !mem.M<0>
}
