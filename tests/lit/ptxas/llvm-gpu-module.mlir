// An upstream program whose gpu.modules hold kernels already in the llvm dialect (as
// convert-gpu-to-nvvm leaves them): gpu-opt reads it as one device module and makes PTX, the
// `nvvm.kernel` functions as `.visible .entry` with their parameters, as MLIR's
// --gpu-lower-to-nvvm-pipeline names them (tests/lit/upstream/mlir-opt/llvm-gpu-module.mlir
// checks MLIR's PTX of this file against the same lines); ptxas assembles it.
// RUN: gpu-opt %s -t 'ptx{line-info=false}' > %t.ptx
// RUN: ptxas -arch=sm_80 %t.ptx -o %t.cubin
// RUN: filecheck %s < %t.ptx
// RUN: gpu-opt %s -t llvm | filecheck %s --check-prefix=LLVM

// CHECK:      .visible .func  (.param .b32 func_retval0) twice(
// CHECK-NEXT: .param .b32 twice_param_0
// CHECK:      ret;
// CHECK:      .visible .entry axpb(
// CHECK-NEXT: .param .f32 axpb_param_0,
// CHECK-NEXT: .param .f32 axpb_param_1,
// CHECK-NEXT: .param .u64 .ptr .global .align 1 axpb_param_2
// CHECK-NEXT: )
// CHECK:      add.rn.f32
// CHECK:      ret;
// CHECK:      .visible .entry nothing()
// CHECK:      ret;
// CHECK:      .visible .entry ids(
// CHECK-NEXT: .param .u64 .ptr .global .align 1 ids_param_0
// CHECK:      %tid.x
// CHECK:      ret;

// LLVM: define {{.*}}i32 @twice(i32
// LLVM: define ptx_kernel void @axpb(float %{{.*}}, float %{{.*}}, ptr addrspace(1) %{{.*}})
// LLVM: define ptx_kernel void @nothing()
// LLVM: define ptx_kernel void @ids(ptr addrspace(1)

module attributes {gpu.container_module} {
  gpu.module @math [#nvvm.target<chip = "sm_80">] {
    llvm.func @twice(%x: i32) -> i32 {
      %0 = llvm.add %x, %x : i32
      llvm.return %0 : i32
    }
    // out[0] = a * 1.5 + b
    llvm.func @axpb(%a: f32, %b: f32, %out: !llvm.ptr<1>) attributes {gpu.kernel, nvvm.kernel} {
      %c = llvm.mlir.constant(1.500000e+00 : f32) : f32
      %0 = llvm.fmul %a, %c : f32
      %1 = llvm.fadd %0, %b : f32
      llvm.store %1, %out : f32, !llvm.ptr<1>
      llvm.return
    }
    llvm.func @nothing() attributes {gpu.kernel, nvvm.kernel} {
      llvm.return
    }
  }
  gpu.module @ids {
    llvm.func @twice_ids(%x: i32) -> i32 {
      %0 = llvm.shl %x, %x : i32
      llvm.return %0 : i32
    }
    // out[tid.x] = tid.x << tid.x
    llvm.func @ids(%out: !llvm.ptr<1>) attributes {gpu.kernel, nvvm.kernel} {
      %t = nvvm.read.ptx.sreg.tid.x : i32
      %v = llvm.call @twice_ids(%t) : (i32) -> i32
      %p = llvm.getelementptr inbounds %out[%t] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, i32
      llvm.store %v, %p : i32, !llvm.ptr<1>
      llvm.return
    }
  }
}
