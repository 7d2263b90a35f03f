// gpu.subgroup_reduce of an i32 over a whole warp as one redux.sync from sm_80 (add, min, max,
// umin, umax, and, or, xor), under the mask of the warp's existing lanes; mul, and a reduce
// over clusters of 8 lanes, stay shuffle trees. Before sm_80 every reduce is shuffles. ptxas
// assembles both. (The program's results on interp and cpu:
// tests/lit/upstream/subgroup-reduce-kinds.mlir.)
// RUN: gpu-opt %S/../upstream/subgroup-reduce-kinds.mlir -t 'ptx{sm=80 line-info=false}' > %t.80.ptx
// RUN: ptxas -arch=sm_80 %t.80.ptx -o %t.80.cubin
// RUN: filecheck %s --check-prefix=SM80 < %t.80.ptx
// RUN: gpu-opt %S/../upstream/subgroup-reduce-kinds.mlir -t 'ptx{sm=75 line-info=false}' > %t.75.ptx
// RUN: ptxas -arch=sm_75 %t.75.ptx -o %t.75.cubin
// RUN: filecheck %s --check-prefix=SM75 < %t.75.ptx
// The LLVM IR calls the intrinsics (value, member mask):
// RUN: gpu-opt %S/../upstream/subgroup-reduce-kinds.mlir -t 'llvm{sm=80}' | filecheck %s --check-prefix=LLVM

// SM80:     .entry kinds(
// SM80-NOT: shfl.sync
// SM80:     redux.sync.add.s32
// SM80-NOT: shfl.sync
// SM80:     redux.sync.min.s32
// SM80-NOT: shfl.sync
// SM80:     redux.sync.max.s32
// SM80-NOT: shfl.sync
// SM80:     redux.sync.min.u32
// SM80-NOT: shfl.sync
// SM80:     redux.sync.max.u32
// SM80-NOT: shfl.sync
// SM80:     redux.sync.and.b32
// SM80-NOT: shfl.sync
// SM80:     redux.sync.or.b32
// SM80-NOT: shfl.sync
// SM80:     redux.sync.xor.b32
// mul: five shuffles down, one idx; clusters of 8: three down, one idx.
// SM80-COUNT-10: shfl.sync.idx.b32
// SM80-NOT: shfl.sync
// SM80-NOT: redux.sync

// SM75:     .entry kinds(
// SM75-NOT: redux.sync
// SM75-COUNT-58: shfl.sync.idx.b32
// SM75-NOT: redux.sync

// LLVM: call i32 @llvm.nvvm.redux.sync.add(i32 %{{.*}}, i32 %{{.*}})
// LLVM: call i32 @llvm.nvvm.redux.sync.min(
// LLVM: call i32 @llvm.nvvm.redux.sync.max(
// LLVM: call i32 @llvm.nvvm.redux.sync.umin(
// LLVM: call i32 @llvm.nvvm.redux.sync.umax(
// LLVM: call i32 @llvm.nvvm.redux.sync.and(
// LLVM: call i32 @llvm.nvvm.redux.sync.or(
// LLVM: call i32 @llvm.nvvm.redux.sync.xor(
