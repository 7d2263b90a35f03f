// The matmul example on the cuda provider (the map-reduce lowering's kernel): the same floats
// as interp, to the last printed digit (no contraction into FMAs without fast math).
// RUN: gpu-run %S/../../../examples/matmul.mlir --provider cuda | filecheck %s

// CHECK:      -2.25, 4.50, -2.50, 0.50,
// CHECK-NEXT: -8.25, 10.50, -4.50, 0.50,
// CHECK-NEXT: -14.25, 16.50, -6.50, 0.50,
// CHECK-NEXT: -20.25, 22.50, -8.50, 0.50,
// CHECK-EMPTY:
