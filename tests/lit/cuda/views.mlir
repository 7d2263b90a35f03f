// The views example on the cuda provider: the kernels read the dense device copies of a and r
// through the views' layouts (transpose, every other column, broadcast row). The same numbers
// as tests/lit/run/views.mlir (worked out there).
// RUN: gpu-run %S/../../../examples/views.mlir --provider cuda | filecheck %s
// RUN: gpu-run %S/../run/views-post.mlir --provider cuda | filecheck %s --check-prefix=POST

// CHECK:      0.00, 6.00, 12.00, 18.00,
// CHECK-NEXT: 1.00, 7.00, 13.00, 19.00,
// CHECK-NEXT: 2.00, 8.00, 14.00, 20.00,
// CHECK-NEXT: 3.00, 9.00, 15.00, 21.00,
// CHECK-NEXT: 4.00, 10.00, 16.00, 22.00,
// CHECK-NEXT: 5.00, 11.00, 17.00, 23.00,
// CHECK-NEXT: 1.00, 3.00, 5.00,
// CHECK-NEXT: 13.00, 15.00, 17.00,
// CHECK-NEXT: 10.00, 22.00, 34.00,
// CHECK-NEXT: 16.00, 28.00, 40.00,
// CHECK-NEXT: 22.00, 34.00, 46.00,
// CHECK-NEXT: 28.00, 40.00, 52.00,
// CHECK-NEXT: 36.00, 40.00, 44.00, 48.00, 52.00, 56.00,
// CHECK-EMPTY:

// POST:      93.00, 117.00,
// POST-NEXT: 109.00, 139.00,
// POST-NEXT: 125.00, 161.00,
// POST-NEXT: 141.00, 183.00,
// POST-EMPTY:
