// A struct kernel parameter {scale: f32, bias: f32, n: i32} = {2, 0.5, 6}, built on the host,
// passed by value: out[i] = a[i] * 2 + 0.5 for i < 6 (a = 1..8), -1 (untouched) after.
// RUN: gpu-run %S/../../../examples/struct-params.mlir --provider interp | filecheck %s
// CHECK:      2.50, 4.50, 6.50, 8.50, 10.50, 12.50, -1.00, -1.00,
// CHECK-NEXT: 43.0
// CHECK-EMPTY:
