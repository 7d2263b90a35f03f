// A barrier between two item loops on the cpu provider: item 1 reads what item 2 wrote to
// shared memory before the barrier.
// RUN: gpu-run %S/../../../examples/manual-sync.mlir --provider cpu 9 | filecheck %s
// CHECK:      2
// CHECK-EMPTY:
