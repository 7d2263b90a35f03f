// `--provider cpu --check`: every planted bug that interp finds, found again by the compiled,
// checked kernels, in interp's words (each program's own CHECK lines), and the clean runs of
// the same programs print what they print without the check.
// REQUIRES: cc
// RUN: not gpu-run %S/out-of-bounds.mlir --provider cpu --check 2>&1 | filecheck %S/out-of-bounds.mlir
// RUN: not gpu-run %S/use-after-free.mlir --provider cpu --check 2>&1 | filecheck %S/use-after-free.mlir
// RUN: not gpu-run %S/out-of-bounds-shared.mlir --provider cpu --check 2>&1 | filecheck %S/out-of-bounds-shared.mlir
// RUN: not gpu-run %S/out-of-bounds-local.mlir --provider cpu --check 2>&1 | filecheck %S/out-of-bounds-local.mlir
// RUN: not gpu-run %S/race-global.mlir --provider cpu --check 2>&1 | filecheck %S/race-global.mlir
// RUN: not gpu-run %S/race-shared.mlir --provider cpu --check 2>&1 | filecheck %S/race-shared.mlir
// RUN: not gpu-run %S/race-atomic.mlir --provider cpu --check 0 2>&1 | filecheck %S/race-atomic.mlir --check-prefix=READ
// RUN: not gpu-run %S/race-atomic.mlir --provider cpu --check 1 2>&1 | filecheck %S/race-atomic.mlir --check-prefix=STORE
// RUN: gpu-run %S/race-atomic.mlir --provider cpu --check 2 | filecheck %S/race-atomic.mlir --check-prefix=CLEAN
// RUN: not gpu-run %S/barrier-divergence.mlir --provider cpu --check 4 2>&1 | filecheck %S/barrier-divergence.mlir
// RUN: not gpu-run %S/barrier-divergence-loop.mlir --provider cpu --check 4 2>&1 | filecheck %S/barrier-divergence-loop.mlir
// RUN: not gpu-run %S/barrier-divergence-branches.mlir --provider cpu --check 4 2>&1 | filecheck %S/barrier-divergence-branches.mlir
// RUN: gpu-run %S/warp-divergence.mlir --provider cpu --check 0 | filecheck %S/warp-divergence.mlir --check-prefix=VALID
// RUN: not gpu-run %S/warp-divergence.mlir --provider cpu --check 1 2>&1 | filecheck %S/warp-divergence.mlir --check-prefix=RETURN
// RUN: not gpu-run %S/warp-divergence.mlir --provider cpu --check 2 2>&1 | filecheck %S/warp-divergence.mlir --check-prefix=BARRIER
// RUN: not gpu-run %S/cpu-barrier-divergence.mlir --provider cpu --check 0 2>&1 | filecheck %S/cpu-barrier-divergence.mlir
// RUN: gpu-run %S/../../../examples/histogram.mlir --provider cpu --check 3000 > %t.checked
// RUN: gpu-run %S/../../../examples/histogram.mlir --provider cpu 3000 > %t.plain
// RUN: diff %t.checked %t.plain
// RUN: gpu-run %S/block-reduce.mlir --provider cpu --check | filecheck %S/block-reduce.mlir
// --check is the cpu provider's:
// RUN: not gpu-run %S/race-global.mlir --provider interp --check 2>&1 | filecheck %s --check-prefix=NOT-CPU
// NOT-CPU: gpu-run: error: --check is an option of the cpu provider, not of interp (interp checks every access anyway)
