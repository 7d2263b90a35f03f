// The array example on the cuda provider: the kernel's four items fill the array, main sums it.
// RUN: gpu-run %S/../../../examples/array.mlir --provider cuda | filecheck %s

// CHECK:      60
// CHECK-EMPTY:
