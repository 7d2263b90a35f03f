// The bias_relu example: x @ w = [[7, -5, -3, 7], [-16, 11, 9, -19]]; plus the bias
// [-3, 2, 0, 1] gives [[4, -3, -3, 8], [-19, 13, 9, -18]]; relu clamps at zero.
// RUN: gpu-run %S/../../../examples/bias_relu.mlir --provider interp | filecheck %s

// CHECK:      4, 0, 0, 8,
// CHECK-NEXT: 0, 13, 9, 0,
// CHECK-EMPTY:
