// The two-arguments example: the kernel stores 42 and 200 through its two pointers; main
// returns 42 + 200 whatever its argument.
// RUN: gpu-run %S/../../../examples/two-arguments.mlir --provider interp 1 | filecheck %s

// CHECK:      242
// CHECK-EMPTY:
