// Two synced scopes on the cpu provider: a device-heap cell (libc malloc) per work-item lives
// across the barriers, kept per item between the item loops.
// RUN: gpu-run %S/../../../examples/scoped-sync.mlir --provider cpu 9 | filecheck %s
// CHECK:      2
// CHECK-EMPTY:
