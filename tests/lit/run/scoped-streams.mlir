// The scoped-streams example: gpu.with_streams with two streams, 42 stored on each; 42 + 42.
// RUN: gpu-run %S/../../../examples/scoped-streams.mlir --provider interp 5 | filecheck %s

// CHECK:      84
// CHECK-EMPTY:
