// RUN: gpu-opt --help | filecheck %s
// RUN: gpu-opt --version | filecheck %s --check-prefix=VERSION
// RUN: not gpu-opt --no-such-flag 2>&1 | filecheck %s --check-prefix=BADFLAG

// CHECK:      usage: gpu-opt [-h]
// CHECK:      gpuir's modular optimizer driver
// CHECK:      -p PASSES, --passes PASSES
// CHECK-NEXT: a pass pipeline, as mlir-opt's (--list-passes: every
// CHECK:      --verify-diagnostics
// CHECK:      --split-input-file

// VERSION: gpu-opt {{[0-9.]+}} (gpuir), built on xdsl 0.75

// BADFLAG: gpu-opt: error: unrecognized arguments: --no-such-flag
