// The work-group collectives on the cpu provider, bit-exact: the same numbers as interp (see
// collectives.mlir: the reduction's fixed tree loses both + 1 to rounding, the scan is a left fold).
// RUN: gpu-run %S/collectives.mlir --provider cpu | filecheck %s
// CHECK:      f32: 0.0 1e+08 1e+08 0.0 1.0
// CHECK-NEXT: i32: 1 1 0 -3 -8
// CHECK-EMPTY:
