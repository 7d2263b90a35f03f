// RUN: gpu-opt --help | filecheck %s
// RUN: gpu-opt --version | filecheck %s --check-prefix=VERSION
// RUN: not gpu-opt --no-such-flag 2>&1 | filecheck %s --check-prefix=BADFLAG

// CHECK:      usage: gpu-opt [-h]
// CHECK:      gpuir's modular optimizer driver
// CHECK:      {{^}}  -p PASSES, --passes PASSES
// CHECK-NEXT: a pass pipeline: 'builtin.module(p1, func.func(p2))'
// CHECK:      {{^}}  --verify-diagnostics  check the diagnostics against the input's expected-
// CHECK:      {{^}}  --split-input-file
// CHECK:      {{^}}  --pass-pipeline PIPELINE
// CHECK:      {{^}}  --dump-pass-pipeline
// CHECK:      {{^}}  --run-reproducer
// CHECK:      pass manager (as mlir-opt's):
// CHECK:      {{^}}  --mlir-print-ir-before PASS[,PASS]
// CHECK:      {{^}}  --mlir-print-ir-after-all, --print-ir-after-all
// CHECK:      {{^}}  --mlir-timing
// CHECK:      {{^}}  --mlir-pass-statistics
// CHECK:      {{^}}  --mlir-pass-pipeline-crash-reproducer FILE

// VERSION: gpu-opt {{[0-9.]+}} (gpuir), built on xdsl 0.75

// BADFLAG: gpu-opt: error: unrecognized arguments: --no-such-flag
