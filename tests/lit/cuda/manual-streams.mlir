// The manual-streams example on the cuda provider: two streams, stream-ordered allocation,
// copies, launches and frees; main returns 42 + 42.
// RUN: gpu-run %S/../../../examples/manual-streams.mlir --provider cuda 5 | filecheck %s

// CHECK:      84
// CHECK-EMPTY:
