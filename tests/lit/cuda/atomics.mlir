// Atomics, fences, lanes and warp operations on the cuda provider: the same programs and the
// same numbers as on cpu and interp (tests/lit/run/atomics.mlir, warp-ops.mlir,
// warp-shuffle-types.mlir, histogram.mlir, atomic-examples.mlir).
// RUN: gpu-run %S/../run/atomics.mlir --provider cuda | filecheck %S/../run/atomics.mlir
// RUN: gpu-run %S/../run/warp-ops.mlir --provider cuda | filecheck %S/../run/warp-ops.mlir
// RUN: gpu-run %S/../run/block-reduce.mlir --provider cuda | filecheck %S/../run/block-reduce.mlir
// RUN: gpu-run %S/../run/warp-shuffle-types.mlir --provider cuda | filecheck %S/../run/warp-shuffle-types.mlir
// RUN: gpu-run %S/../../../examples/histogram.mlir --provider cuda 1000000 | filecheck %S/../run/histogram.mlir --check-prefix=LARGE
// RUN: gpu-run %S/../../../examples/global-sum.mlir --provider cuda 100000 | filecheck %S/../run/atomic-examples.mlir --check-prefix=SUM
// RUN: gpu-run %S/../../../examples/compaction.mlir --provider cuda 1000 | filecheck %S/../run/atomic-examples.mlir --check-prefix=COMPACT
// RUN: gpu-run %S/../../../examples/warp-reduce.mlir --provider cuda 4000 | filecheck %S/../run/atomic-examples.mlir --check-prefix=WARP
