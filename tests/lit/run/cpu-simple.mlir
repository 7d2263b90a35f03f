// The smallest program on the cpu provider: a 4 x 4 launch of a kernel that does nothing.
// RUN: gpu-run %S/../../../examples/simple.mlir --provider cpu | filecheck %s --allow-empty
// CHECK-NOT: {{.}}
