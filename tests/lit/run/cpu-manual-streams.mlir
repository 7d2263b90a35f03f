// Two streams by hand on the cpu provider (stream-ordered work runs in call order).
// RUN: gpu-run %S/../../../examples/manual-streams.mlir --provider cpu 5 | filecheck %s
// CHECK:      84
// CHECK-EMPTY:
