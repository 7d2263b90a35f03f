// The two-configurations example: item (g, i) stores g at g * n + i. One group of 16: all
// zeros, sum 0; four groups of 4: 4 * (0 + 1 + 2 + 3) = 24.
// RUN: gpu-run %S/../../../examples/two-configurations.mlir --provider interp | filecheck %s

// CHECK:      0
// CHECK-NEXT: 24
// CHECK-EMPTY:
