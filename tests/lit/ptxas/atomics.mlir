// RUN: gpu-opt %S/../run/atomics.mlir -p gpu-pipeline -t 'ptx{sm=80}' > %t.sm80.ptx
// RUN: ptxas -arch=sm_80 %t.sm80.ptx -o %t.sm80.cubin
// RUN: gpu-opt %S/../run/atomics.mlir -p gpu-pipeline -t 'ptx{sm=90}' > %t.sm90.ptx
// RUN: ptxas -arch=sm_90 %t.sm90.ptx -o %t.sm90.cubin
// RUN: gpu-opt %S/../../../examples/histogram.mlir -p gpu-pipeline -t 'ptx{sm=80}' > %t.h.ptx
// RUN: ptxas -arch=sm_80 %t.h.ptx -o %t.h.cubin

// Every atomic kind on i32, i64 and f32 (global and shared memory), compare-and-swap, the
// three fences and the lane id (tests/lit/run/atomics.mlir), and the histogram example,
// assemble for sm_80 and sm_90.
