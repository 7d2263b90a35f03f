// Upstream programs with constant globals in kernels, functions of several blocks, ROCm's
// device-view shims and every memref.atomic_rmw kind, through gpuir's NVPTX lowering: PTX that
// ptxas assembles.
// RUN: gpu-opt %S/../upstream/global-kernel.mlir -t 'ptx{sm=80}' > %t.global.ptx
// RUN: ptxas -arch=sm_80 %t.global.ptx -o %t.global.cubin
// RUN: filecheck %s --check-prefix=GLOBAL < %t.global.ptx
// RUN: gpu-opt %S/../upstream/multi-block.mlir -t 'ptx{sm=80}' > %t.blocks.ptx
// RUN: ptxas -arch=sm_80 %t.blocks.ptx -o %t.blocks.cubin
// RUN: gpu-opt %S/../upstream/rocm-shims.mlir -t 'ptx{sm=80}' > %t.shims.ptx
// RUN: ptxas -arch=sm_80 %t.shims.ptx -o %t.shims.cubin

// The constant table as each work-item's private (local) array:
// GLOBAL: .entry k(
// GLOBAL: .local
// GLOBAL: st.local.b32 {{.*}}, 1;

// Every memref.atomic_rmw kind, and the NaN rules' test: the kinds mem.atomic_rmw lacks as a
// loop of atom.cas (of the float's bits).
// RUN: gpu-opt %S/../upstream/atomic-kinds.mlir -t 'ptx{sm=80}' > %t.atomics.ptx
// RUN: ptxas -arch=sm_80 %t.atomics.ptx -o %t.atomics.cubin
// RUN: filecheck %s --check-prefix=ATOMICS < %t.atomics.ptx
// RUN: gpu-opt %S/../upstream/atomic-nan.mlir -t 'ptx{sm=90}' > %t.nan.ptx
// RUN: ptxas -arch=sm_90 %t.nan.ptx -o %t.nan.cubin
// ATOMICS: atom.relaxed.gpu.global.cas.b32
// ATOMICS: atom.relaxed.gpu.global.cas.b64
