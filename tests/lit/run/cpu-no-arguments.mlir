// A kernel without arguments on the cpu provider.
// RUN: gpu-run %S/../../../examples/no-arguments.mlir --provider cpu 7 | filecheck %s
// CHECK:      7
// CHECK-EMPTY:
