// A kernel with two pointer arguments on the cpu provider.
// RUN: gpu-run %S/../../../examples/two-arguments.mlir --provider cpu 1 | filecheck %s
// CHECK:      242
// CHECK-EMPTY:
