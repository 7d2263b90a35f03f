// RUN: gpu-opt %S/../lowering/target-ptx-structs.mlir -t 'ptx{sm=80}' > %t.sm80.ptx
// RUN: ptxas -arch=sm_80 %t.sm80.ptx -o %t.sm80.cubin
// RUN: gpu-opt %S/../lowering/target-ptx-structs.mlir -t 'ptx{sm=90}' > %t.sm90.ptx
// RUN: ptxas -arch=sm_90 %t.sm90.ptx -o %t.sm90.cubin
// RUN: gpu-opt %S/../../../examples/struct-params.mlir -t 'ptx{sm=90}' > %t.example.ptx
// RUN: ptxas -arch=sm_90 %t.example.ptx -o %t.example.cubin
// RUN: grep -c '.param .align 4 .b8 affine_param_0\[12\]' %t.example.ptx | filecheck %s

// By-value struct parameters (`.param .align A .b8 name[size]`) assemble for sm_80 and sm_90:
// the kernels of the struct PTX test (nested struct, index and pointer fields) and the
// struct-params example.
// CHECK: 1
