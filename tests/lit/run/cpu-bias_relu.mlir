// The dense layer of bias_relu (btensor.map_reduce_post lowered to a kernel) on the cpu provider.
// RUN: gpu-run %S/../../../examples/bias_relu.mlir --provider cpu | filecheck %s
// CHECK:      4, 0, 0, 8,
// CHECK-NEXT: 0, 13, 9, 0,
// CHECK-EMPTY:
