// The dynamic-shared-memory example on the cuda provider: the launch's sharedMemBytes is
// 4 items x 4 bytes; each item reads its right neighbour's id: 1, 2, 3, 0 per group, twice.
// RUN: gpu-run %S/../../../examples/dynamic-shared-memory.mlir --provider cuda | filecheck %s

// CHECK:      12
// CHECK-EMPTY:
