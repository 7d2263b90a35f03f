// The views example, a[i][j] = 6i + j (4x6): its transpose printed row by row (a's columns),
// the 2x3 view from element 1 with strides 12 and 2 (elements 1, 3, 5 and 13, 15, 17), the
// every-other-column slice plus the broadcast row [10, 20, 30] (a[i][2j] + 10(j + 1) =
// 6i + 12j + 10), and the row sums of the transpose (column j of a: 4j + 36).
// The GPU path (the default pipeline) on interp and cpu, and the CPU path, print the same.
// RUN: gpu-run %S/../../../examples/views.mlir --provider interp | filecheck %s
// RUN: gpu-run %S/../../../examples/views.mlir --provider cpu | filecheck %s
// RUN: gpu-run %S/../../../examples/views.mlir --provider interp -p btensor-lower-map-reduce,buffer-lower-ptr | filecheck %s

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
