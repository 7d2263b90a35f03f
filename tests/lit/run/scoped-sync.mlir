// The scoped-sync example: two synced scopes; item 1 reads the mirrored element 3 - 1 = 2 and
// main returns it.
// RUN: gpu-run %S/../../../examples/scoped-sync.mlir --provider interp 9 | filecheck %s

// CHECK:      2
// CHECK-EMPTY:
