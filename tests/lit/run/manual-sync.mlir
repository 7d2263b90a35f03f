// The manual-sync example: after the barrier, item 1 reads shared[3 - 1], which item 2 wrote:
// main returns 2 (item 1 of every group stores the same 2).
// RUN: gpu-run %S/../../../examples/manual-sync.mlir --provider interp 9 | filecheck %s

// CHECK:      2
// CHECK-EMPTY:
