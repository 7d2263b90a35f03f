// The manual-streams example: on each of two streams a kernel stores 42 (every item of the
// 4 x 4 grid stores the same value, which is not a race); main returns 42 + 42.
// RUN: gpu-run %S/../../../examples/manual-streams.mlir --provider interp 5 | filecheck %s

// CHECK:      84
// CHECK-EMPTY:
