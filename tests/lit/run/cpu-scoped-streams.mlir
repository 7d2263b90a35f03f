// gpu.with_streams on the cpu provider.
// RUN: gpu-run %S/../../../examples/scoped-streams.mlir --provider cpu 5 | filecheck %s
// CHECK:      84
// CHECK-EMPTY:
