// The struct-params example on the cpu provider: the struct's bytes reach the compiled kernel
// by value (out[i] = a[i] * 2 + 0.5 for i < 6, a = 1..8).
// RUN: gpu-run %S/../../../examples/struct-params.mlir --provider cpu | filecheck %s
// CHECK:      2.50, 4.50, 6.50, 8.50, 10.50, 12.50, -1.00, -1.00,
// CHECK-NEXT: 43.0
// CHECK-EMPTY:
