// The array example: item i stores 10 * i into a 4-element device array; main returns the
// sum 0 + 10 + 20 + 30.
// RUN: gpu-run %S/../../../examples/array.mlir --provider interp | filecheck %s

// CHECK:      60
// CHECK-EMPTY:
