// The simple example: a 4 x 4 launch of a kernel that does nothing; main returns only its
// token, so nothing is printed.
// RUN: gpu-run %S/../../../examples/simple.mlir --provider interp | filecheck %s --allow-empty

// CHECK-NOT: {{.}}
