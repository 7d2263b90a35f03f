// The invalid examples fail in the pipeline (mem-checks), before anything runs.
// RUN: not gpu-run %S/../../../examples/invalid-token-argument.mlir --provider interp 1 2>&1 | filecheck %s --check-prefix=TOKEN
// RUN: not gpu-run %S/../../../examples/invalid-main-takes-device-token.mlir --provider interp 1 2>&1 | filecheck %s --check-prefix=TAKES
// RUN: not gpu-run %S/../../../examples/invalid-main-returns-device-token.mlir --provider interp 1 2>&1 | filecheck %s --check-prefix=RETURNS

// TOKEN:   invalid-token-argument.mlir:26:3: error: {{.*}}across the device boundary
// TOKEN-NOT: Traceback
// TAKES:   invalid-main-takes-device-token.mlir:{{[0-9]+}}:1: error: {{.*}}main may not take
// RETURNS: invalid-main-returns-device-token.mlir:{{[0-9]+}}:1: error: {{.*}}main may not return
