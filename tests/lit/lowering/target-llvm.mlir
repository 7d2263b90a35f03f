// RUN: gpu-opt %s -t llvm | filecheck %s
// RUN: gpu-opt %s -t 'llvm{opt=3}' | filecheck %s --check-prefix=OPT
// RUN: gpu-opt %s -p gpu-pipeline,device-to-llvm | gpu-opt -t llvm | filecheck %s

// -t llvm prints the device module as LLVM IR for NVPTX, as translated (LLVM's own printing,
// after its verifier): kernels are ptx_kernel functions, static shared memory an internal
// addrspace(3) global, dynamic shared memory an external one, ids are sreg reads, barriers the
// NVVM intrinsic; every device function is convergent. With opt > 0 libdevice is linked and
// LLVM's optimizer runs.

func.func @scale(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
                 %group: index, %item: index, %smem: !mem.ptr<!mem.array<? x f32>, 3>,
                 %x: !mem.ptr<!mem.array<? x f32>, 1>, %n: index)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
  %a3, %tile = mem.slot %m3 : !mem.ptr<!mem.array<32 x f32>, 3>
  %base = arith.muli %group, %n : index
  %flat = arith.addi %base, %item : index
  %p = mem.lea %x, %flat : !mem.ptr<!mem.array<? x f32>, 1>
  %a1, %v = mem.load %m1, %p : !mem.ptr<f32, 1>
  %e = func.call @expm(%v) : (f32) -> f32
  %t = mem.lea %tile, %item : !mem.ptr<!mem.array<32 x f32>, 3>
  %b3 = mem.store %a3, %t, %e : !mem.ptr<f32, 3>
  %s = mem.lea %smem, %item : !mem.ptr<!mem.array<? x f32>, 3>
  %c3 = mem.store %b3, %s, %e : !mem.ptr<f32, 3>
  %d1, %d3 = gpu.sync_work_items %a1, %c3
  %e1 = mem.store %d1, %p, %e : !mem.ptr<f32, 1>
  func.return %e1, %d3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}

func.func @expm(%v: f32) -> f32 {
  %e = math.exp %v : f32
  func.return %e : f32
}

func.func @main(%m: !mem.M<0>, %n: index) -> !mem.M<0> {
  %m0, %m1, %m4 = gpu.init %m
  %a1, %x = gpu.alloc.block %m1, %n : !mem.ptr<!mem.array<? x f32>, 1>
  %s = gpu.default_stream
  %one = arith.constant 1 : index
  %l0, %l1, %l4 = gpu.launch @scale grid(%one, %n) stream(%s) smem(!mem.array<? x f32>, %n)
      mems(%m0, %a1, %m4) args(%x, %n) : (!mem.ptr<!mem.array<? x f32>, 1>, index)
  %f1 = gpu.free.block %l1, %x : !mem.ptr<!mem.array<? x f32>, 1>
  %done = gpu.deinit %l0, %f1, %l4
  func.return %done : !mem.M<0>
}

// CHECK:       target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
// CHECK-NEXT:  target triple = "nvptx64-nvidia-cuda"
// CHECK-DAG:   @__dynamic_smem = external addrspace(3) global [0 x i8], align 16
// CHECK-DAG:   @__shared_scale_0 = internal addrspace(3) global [32 x float] undef, align 4
// CHECK:       declare float @__nv_expf(float) #[[PLAIN:[0-9]+]]
// CHECK:       define ptx_kernel void @scale(ptr addrspace(1) %x, i64 %n) #[[CONVERGENT:[0-9]+]] !dbg !{{[0-9]+}} {
// CHECK:         call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
// CHECK:         call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
// CHECK:         getelementptr inbounds float, ptr addrspace(1) %x
// CHECK:         load float, ptr addrspace(1)
// CHECK:         call float @expm(float
// CHECK:         store float %e, ptr addrspace(3)
// CHECK:         getelementptr inbounds float, ptr addrspace(3) @__dynamic_smem
// CHECK:         call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
// CHECK:         store float %e, ptr addrspace(1)
// CHECK-NEXT:    ret void
// CHECK:       define internal float @expm(float %v) #[[CONVERGENT]] !dbg !{{[0-9]+}} {
// CHECK:         call float @__nv_expf(float %v)
// CHECK-DAG:   attributes #[[CONVERGENT]] = { convergent nounwind }
// CHECK-DAG:   attributes #[[PLAIN]] = { nounwind }

// OPT:         define ptx_kernel void @scale(
// OPT-NOT:     call {{.*}}@expm
// OPT:         call float @llvm.nvvm.ex2.approx.ftz.f32
// OPT:         tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
// OPT-NOT:     @__nv_expf
// OPT-NOT:     define {{.*}}@expm
