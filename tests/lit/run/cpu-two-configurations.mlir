// One kernel, two launch configurations (1 x 16 and 4 x 4) on the cpu provider.
// RUN: gpu-run %S/../../../examples/two-configurations.mlir --provider cpu | filecheck %s
// CHECK:      0
// CHECK-NEXT: 24
// CHECK-EMPTY:
