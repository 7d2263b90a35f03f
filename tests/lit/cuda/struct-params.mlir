// The struct-params example on the cuda provider: the struct {f32, f32, i32} is one by-value
// kernel parameter of 12 bytes (out[i] = a[i] * 2 + 0.5 for i < 6, a = 1..8).
// RUN: gpu-run %S/../../../examples/struct-params.mlir --provider cuda | filecheck %s
// CHECK:      2.50, 4.50, 6.50, 8.50, 10.50, 12.50, -1.00, -1.00,
// CHECK-NEXT: 43.0
// CHECK-EMPTY:
