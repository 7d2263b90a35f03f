// Dynamic shared memory and a barrier on the cpu provider: each group's items read their right
// neighbour's id from the group's own shared array.
// RUN: gpu-run %S/../../../examples/dynamic-shared-memory.mlir --provider cpu | filecheck %s
// CHECK:      12
// CHECK-EMPTY:
