// The invalid examples fail the default pipeline (in mem-checks) with a diagnostic at the op.
//
// RUN: not gpu-opt %S/../../../examples/invalid-token-argument.mlir -p gpu-pipeline 2>&1 | filecheck %s --check-prefix=TOKEN
// RUN: not gpu-opt %S/../../../examples/invalid-main-takes-device-token.mlir -p gpu-pipeline 2>&1 | filecheck %s --check-prefix=TAKES
// RUN: not gpu-opt %S/../../../examples/invalid-main-returns-device-token.mlir -p gpu-pipeline 2>&1 | filecheck %s --check-prefix=RETURNS

// TOKEN:     invalid-token-argument.mlir:26:3: error: You may not pass any !mem.M across the device boundary: passing %c0 : !mem.M<0> from host to kernel @kernel
// TOKEN-NOT: Traceback

// TAKES:     invalid-main-takes-device-token.mlir:15:1: error: @main may not take !mem.M<1> (argument #1): a !mem.M with a non-zero address space cannot come from outside the program; create it with gpu.init
// TAKES-NOT: Traceback

// RETURNS:     invalid-main-returns-device-token.mlir:15:1: error: @main may not return !mem.M<1> (result #1): a !mem.M with a non-zero address space cannot leave the program; consume it with gpu.deinit
// RETURNS-NOT: Traceback
