// What upstream MLIR cannot hold is an error at the op, naming it and saying why; exit status 1.
// RUN: not gpu-opt %S/../../../../examples/workgroup-collectives.mlir -t mlir-upstream 2>&1 | filecheck %s --check-prefix=SCAN
// RUN: not gpu-opt %S/../../../../examples/dynamic-shared-memory.mlir -t mlir-upstream 2>&1 | filecheck %s --check-prefix=SMEM
// RUN: not gpu-opt %S/../../../../examples/bias_relu.mlir -t mlir-upstream 2>&1 | filecheck %s --check-prefix=PRINTF
// RUN: not gpu-opt %S/../../../../examples/kernel-printf.mlir -t mlir-upstream 2>&1 | filecheck %s --check-prefix=FLOAT
// RUN: not gpu-opt %S/../../../../examples/struct-params.mlir -t mlir-upstream 2>&1 | filecheck %s --check-prefix=STRUCT
// RUN: not gpu-opt %S/../../run/warp-ops.mlir -t mlir-upstream 2>&1 | filecheck %s --check-prefix=BALLOT
// RUN: not gpu-opt %S/../../run/atomics.mlir -t mlir-upstream 2>&1 | filecheck %s --check-prefix=SUB

// SCAN: workgroup-collectives.mlir:41:3: error: 'gpu.workgroup_scan' cannot be exported to upstream MLIR: upstream MLIR has no work-group scan
// SCAN-NOT: Traceback
// SMEM: dynamic-shared-memory.mlir:37:3: error: 'gpu.launch' cannot be exported to upstream MLIR: a launch with dynamic shared memory (smem) is not exported (yet)
// PRINTF: error: 'printf.print_format' cannot be exported to upstream MLIR: upstream host code has no printf (gpu.printf is device-only)
// FLOAT: kernel-printf.mlir:{{[0-9]+}}:{{[0-9]+}}: error: 'printf.print_format' cannot be exported to upstream MLIR: it prints a f32 as {}, which C's printf has no conversion for
// STRUCT: struct-params.mlir:{{[0-9]+}}:{{[0-9]+}}: error: 'func.func' cannot be exported to upstream MLIR: !llvm.struct<(f32, f32, i32)> is not exported (yet)
// BALLOT: warp-ops.mlir:{{[0-9]+}}:{{[0-9]+}}: error: 'gpu.ballot' cannot be exported to upstream MLIR: the gpu dialect has no ballot
// SUB: atomics.mlir:{{[0-9]+}}:{{[0-9]+}}: error: 'mem.atomic_rmw' cannot be exported to upstream MLIR: memref.atomic_rmw has no kind "sub"
