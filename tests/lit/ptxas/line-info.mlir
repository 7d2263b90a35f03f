// RUN: gpu-opt %S/../lowering/line-info.mlir -t 'ptx{sm=80}' > %t.sm80.ptx
// RUN: ptxas -arch=sm_80 -lineinfo %t.sm80.ptx -o %t.sm80.cubin
// RUN: gpu-opt %S/../lowering/line-info.mlir -t 'ptx{sm=90}' > %t.sm90.ptx
// RUN: ptxas -arch=sm_90 -lineinfo %t.sm90.ptx -o %t.sm90.cubin
// RUN: gpu-opt %S/../lowering/target-ptx.mlir -t 'ptx{sm=90 opt=0}' > %t.o0.ptx
// RUN: ptxas -arch=sm_90 -lineinfo %t.o0.ptx -o %t.o0.cubin
// RUN: gpu-opt %S/../../../examples/workgroup-collectives.mlir -t 'ptx{sm=80}' > %t.coll.ptx
// RUN: ptxas -arch=sm_80 -lineinfo %t.coll.ptx -o %t.coll.cubin
// RUN: cat %t.sm80.ptx %t.sm90.ptx %t.o0.ptx %t.coll.ptx | filecheck %s

// The PTX with line info (`.file` / `.loc`, the default) assembles with `ptxas -lineinfo`
// for sm_80 and sm_90: the line-info test's kernel, the PTX target test's kernels unoptimized
// (every op's line kept), and a kernel that calls the collectives' helper functions (which
// have no location, so no line info of their own).

// CHECK: .target sm_80
// CHECK: .loc 1 21 3
// CHECK: .file 1 "{{.*}}line-info.mlir"
// CHECK: .target sm_90
// CHECK: .loc 1 21 3
// CHECK: .file 1 "{{.*}}line-info.mlir"
// CHECK: .target sm_90
// CHECK: .file 1 "{{.*}}target-ptx.mlir"
// CHECK: .target sm_80
// CHECK: .file 1 "{{.*}}workgroup-collectives.mlir"
