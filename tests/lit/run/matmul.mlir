// The matmul example: row i of a is 8i+1 .. 8i+8; the columns of b sum to -0.75, 0.75, -0.25
// and 0, so each row adds 8 * that to row 0, which is (-2.25, 4.5, -2.5, 0.5).
// RUN: gpu-run %S/../../../examples/matmul.mlir --provider interp | filecheck %s

// CHECK:      -2.25, 4.50, -2.50, 0.50,
// CHECK-NEXT: -8.25, 10.50, -4.50, 0.50,
// CHECK-NEXT: -14.25, 16.50, -6.50, 0.50,
// CHECK-NEXT: -20.25, 22.50, -8.50, 0.50,
// CHECK-EMPTY:
