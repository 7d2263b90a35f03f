// The bias_relu example on the cuda provider: x @ w + bias, clamped at zero.
// RUN: gpu-run %S/../../../examples/bias_relu.mlir --provider cuda | filecheck %s

// CHECK:      4, 0, 0, 8,
// CHECK-NEXT: 0, 13, 9, 0,
// CHECK-EMPTY:
