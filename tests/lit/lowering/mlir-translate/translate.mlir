// RUN: gpu-opt %s -p device-to-llvm --print-op-generic | mlir-translate-22 --mlir-to-llvmir | filecheck %s

// The generic form of the lowered device module is MLIR 22's llvm dialect: mlir-translate reads
// it, gpuir's extension ops (addrspacecast, fptosi, uitofp) included, and makes a ptx_kernel of
// the nvvm.kernel function, as gpuir's own translation does.
builtin.module @device attributes {gpu.device} {
  func.func @k(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
               %group: index, %item: index, %smem: !mem.ptr<!mem.array<? x f32>, 3>,
               %out: !mem.ptr<!mem.array<? x i32>, 1>, %n: index)
      -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) attributes {gpu.kernel} {
    %a3, %tile = mem.slot %m3 : !mem.ptr<!mem.array<8 x f32>, 3>
    %a5, %loc = mem.slot %m5 : !mem.ptr<i32, 5>
    %zero = arith.constant 0 : index
    %one = arith.constant 1 : index
    %f0 = arith.constant 0.0 : f32
    %t3, %acc = scf.for %j = %zero to %n step %one iter_args(%tok = %a3, %s = %f0) -> (!mem.M<3>, f32) {
      %e = mem.lea %smem, %j : !mem.ptr<!mem.array<? x f32>, 3>
      %tok2, %x = mem.load %tok, %e : !mem.ptr<f32, 3>
      %s2 = arith.addf %s, %x : f32
      scf.yield %tok2, %s2 : !mem.M<3>, f32
    }
    %b1, %b3 = gpu.sync_work_items %m1, %t3
    %i = arith.fptosi %acc : f32 to i32
    %u = arith.uitofp %i : i32 to f32
    %w = math.exp %u : f32
    %t = mem.lea %tile, %item : !mem.ptr<!mem.array<8 x f32>, 3>
    %c3 = mem.store %b3, %t, %w : !mem.ptr<f32, 3>
    %b5 = mem.store %a5, %loc, %i : !mem.ptr<i32, 5>
    %c1, %buf = mem.alloc %b1 : !mem.ptr<i32, 1>
    %d1 = mem.free %c1, %buf : !mem.ptr<i32, 1>
    %o = mem.lea %out, %group : !mem.ptr<!mem.array<? x i32>, 1>
    %e1 = mem.store %d1, %o, %i : !mem.ptr<i32, 1>
    func.return %e1, %c3, %m4, %b5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
  }
}

// CHECK-DAG:   @__dynamic_smem = external addrspace(3) global [0 x i8], align 16
// CHECK-DAG:   @__shared_k_0 = internal addrspace(3) global [8 x float] undef, align 4
// CHECK-DAG:   declare ptr @malloc(i64)
// CHECK-DAG:   declare void @free(ptr)
// CHECK-DAG:   declare float @__nv_expf(float)
// CHECK:       define ptx_kernel void @k(ptr addrspace(1) %{{.*}}, i64 %{{.*}}) {
// CHECK:         alloca i32, i64 1, align 4
// CHECK:         addrspacecast ptr %{{.*}} to ptr addrspace(5)
// CHECK:         call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
// CHECK:         call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
// CHECK:         phi float
// CHECK:         getelementptr inbounds float, ptr addrspace(3) @__dynamic_smem
// CHECK:         call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
// CHECK:         fptosi float %{{.*}} to i32
// CHECK:         uitofp i32 %{{.*}} to float
// CHECK:         call float @__nv_expf(float
// CHECK:         store float %{{.*}}, ptr addrspace(3)
// CHECK:         store i32 %{{.*}}, ptr addrspace(5)
// CHECK:         call ptr @malloc(i64 4)
// CHECK:         addrspacecast ptr %{{.*}} to ptr addrspace(1)
// CHECK:         call void @free(ptr
// CHECK:         store i32 %{{.*}}, ptr addrspace(1)
// CHECK:         ret void
