// The matrix ops' wmma instructions assemble for sm_80: the programs of
// tests/lit/upstream/mma-matmul.mlir (f32 and f16 accumulators, constants, elementwise ops, a
// transposed store).
// RUN: gpu-opt %S/../upstream/mma-matmul.mlir -t 'ptx{sm=80}' > %t.sm80.ptx
// RUN: ptxas -arch=sm_80 %t.sm80.ptx -o %t.sm80.cubin
// RUN: filecheck %s < %t.sm80.ptx
// CHECK: wmma.load.b.sync.aligned.row.m16n16k16.f16
// CHECK: wmma.store.d.sync.aligned.col.m16n16k16.f16

// The f64 tiles (m8n8k4, sm_80 and newer) of tests/lit/upstream/mma-f64.mlir: loads, a product
// of transposed operands, a constant, negatef and a transposed store.
// RUN: gpu-opt %S/../upstream/mma-f64.mlir -t 'ptx{sm=80}' > %t.f64.ptx
// RUN: ptxas -arch=sm_80 %t.f64.ptx -o %t.f64.cubin
// RUN: gpu-opt %S/../upstream/mma-f64.mlir -t 'ptx{sm=90}' > %t.f64.sm90.ptx
// RUN: ptxas -arch=sm_90 %t.f64.sm90.ptx -o %t.f64.sm90.cubin
// RUN: filecheck %s --check-prefix=F64 < %t.f64.ptx
// F64: wmma.mma.sync.aligned.row.row.m8n8k4.f64.f64.f64.f64
// F64: wmma.mma.sync.aligned.row.col.m8n8k4.f64.f64.f64.f64
// F64: wmma.store.d.sync.aligned.col.m8n8k4.f64
