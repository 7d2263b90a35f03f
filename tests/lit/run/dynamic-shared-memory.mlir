// The dynamic-shared-memory example: 2 groups of 4 items; item i reads the id its right
// neighbour (i + 1) mod 4 wrote into the group's shared array: 1, 2, 3, 0 in each group, so
// main returns 2 * 6.
// RUN: gpu-run %S/../../../examples/dynamic-shared-memory.mlir --provider interp | filecheck %s

// CHECK:      12
// CHECK-EMPTY:
