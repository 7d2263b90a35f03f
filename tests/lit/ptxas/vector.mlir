// Upstream programs with vectors in their kernels through gpuir's NVPTX lowering: LLVM vectors
// (insertelement, shufflevector, extractelement, llvm.fma.v4f32, llvm.vector.reduce.*) that
// the NVPTX back end splits into scalar instructions; ptxas assembles them for sm_80 and sm_90.
// RUN: gpu-opt %S/../upstream/vector-kernel.mlir -t 'ptx{sm=80}' > %t.kernel.ptx
// RUN: ptxas -arch=sm_80 %t.kernel.ptx -o %t.kernel.cubin
// RUN: filecheck %s --check-prefix=KERNEL < %t.kernel.ptx
// RUN: gpu-opt %S/../upstream/vector-kernel-ops.mlir -t 'ptx{sm=90}' > %t.ops.ptx
// RUN: ptxas -arch=sm_90 %t.ops.ptx -o %t.ops.cubin
// RUN: filecheck %s --check-prefix=OPS < %t.ops.ptx

// The fma per lane, the ordered sum from +0.0:
// KERNEL: .entry saxpy(
// KERNEL-COUNT-4: fma.rn.f32
// KERNEL: add.rn.f32 {{%r[0-9]+}}, {{%r[0-9]+}}, 0f00000000;
// KERNEL-COUNT-3: add.rn.f32

// OPS: .entry ops(
// OPS: max.s32
// OPS: or.b32
