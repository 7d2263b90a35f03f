// RUN: gpu-opt %S/../lowering/target-ptx.mlir -t 'ptx{sm=80}' > %t.sm80.ptx
// RUN: ptxas -arch=sm_80 %t.sm80.ptx -o %t.sm80.cubin
// RUN: gpu-opt %S/../lowering/target-ptx.mlir -t 'ptx{sm=90}' > %t.sm90.ptx
// RUN: ptxas -arch=sm_90 %t.sm90.ptx -o %t.sm90.cubin
// RUN: gpu-opt %S/../lowering/target-ptx.mlir -t 'ptx{sm=90 opt=0 fast-math=true}' > %t.o0.ptx
// RUN: ptxas -arch=sm_90 %t.o0.ptx -o %t.o0.cubin
// RUN: gpu-opt %S/../lowering/mlir-translate/translate.mlir -t 'ptx{sm=80}' > %t.all.ptx
// RUN: ptxas -arch=sm_80 %t.all.ptx -o %t.all.cubin
// RUN: gpu-opt %S/../run/mslot-scalars.mlir -p gpu-pipeline -t 'ptx{sm=80 opt=0}' > %t.mslot.ptx
// RUN: ptxas -arch=sm_80 %t.mslot.ptx -o %t.mslot.cubin
// RUN: filecheck %s --check-prefix=MSLOT < %t.mslot.ptx

// The kernels of the PTX target test (one per group of device ops: ids, static and dynamic
// shared memory and barriers, const and local memory, the device heap, math and casts, calls)
// and of the mlir-translate test assemble for sm_80 and sm_90, optimized or not.

// The scalars in byte-sized slots of run/mslot-scalars.mlir, unoptimized: an i32 and an f64 in
// local memory, an i32 in shared memory, stored and loaded as themselves.
// MSLOT: st.local.b32
// MSLOT: st.local.b64
// MSLOT: st.shared.b32
// MSLOT: ld.local.b32
// MSLOT: ld.local.b64
// MSLOT: ld.shared.b32
