// The matrix ops' wmma instructions assemble for sm_80: the programs of
// tests/lit/upstream/mma-matmul.mlir (f32 and f16 accumulators, constants, elementwise ops, a
// transposed store).
// RUN: gpu-opt %S/../upstream/mma-matmul.mlir -t 'ptx{sm=80}' > %t.sm80.ptx
// RUN: ptxas -arch=sm_80 %t.sm80.ptx -o %t.sm80.cubin
// RUN: filecheck %s < %t.sm80.ptx
// CHECK: wmma.load.b.sync.aligned.row.m16n16k16.f16
// CHECK: wmma.store.d.sync.aligned.col.m16n16k16.f16
