// The two-configurations example on the cuda provider: one kernel launched as 1 x 16 and as
// 4 x 4; the sums of the group ids are 0 and 24.
// RUN: gpu-run %S/../../../examples/two-configurations.mlir --provider cuda | filecheck %s

// CHECK:      0
// CHECK-NEXT: 24
// CHECK-EMPTY:
