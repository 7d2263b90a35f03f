// RUN: gpu-opt %s -t host-llvm | filecheck %s
// RUN: gpu-opt %s -t 'host-llvm{opt=3}' | filecheck %s --check-prefix=OPT
// RUN: gpu-opt %s -p gpu-pipeline,host-to-llvm | gpu-opt -t host-llvm | filecheck %s

// -t host-llvm prints the host module as LLVM IR for this CPU (LLVM's own printing, after its
// verifier): the runtime's functions are declared, @main is defined with C's signature, the
// kernel's name is a constant string. With opt > 0 LLVM's optimizer runs (the loop that fills
// host memory becomes a vector store here).

func.func @k(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>, %g: index,
             %i: index, %p: !mem.ptr<!mem.array<8 x f32>, 1>)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
  func.return %m1, %m3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}

func.func @main(%m: !mem.M<0>, %x: f32) -> (!mem.M<0>, f32) {
  %m0, %m1, %m4 = gpu.init %m
  %h0, %host = mem.alloc %m0 : !mem.ptr<!mem.array<8 x f32>, 0>
  %zero = arith.constant 0 : index
  %one = arith.constant 1 : index
  %eight = arith.constant 8 : index
  %t = scf.for %k = %zero to %eight step %one iter_args(%tok = %h0) -> (!mem.M<0>) {
    %e = mem.lea %host, %k : !mem.ptr<!mem.array<8 x f32>, 0>
    %tok2 = mem.store %tok, %e, %x : !mem.ptr<f32, 0>
    scf.yield %tok2 : !mem.M<0>
  }
  %d1, %dev = gpu.alloc.block %m1 : !mem.ptr<!mem.array<8 x f32>, 1>
  %c0, %c1 = gpu.copy_to_device.block %t, %d1, %host -> %dev
      : !mem.ptr<!mem.array<8 x f32>, 0> -> !mem.ptr<!mem.array<8 x f32>, 1>
  %s = gpu.default_stream
  %l0, %l1, %l4 = gpu.launch @k grid(%one, %eight) stream(%s) mems(%c0, %c1, %m4)
      args(%dev) : (!mem.ptr<!mem.array<8 x f32>, 1>)
  %f1 = gpu.free.block %l1, %dev : !mem.ptr<!mem.array<8 x f32>, 1>
  %f0 = mem.free %l0, %host : !mem.ptr<!mem.array<8 x f32>, 0>
  %done = gpu.deinit %f0, %f1, %l4
  func.return %done, %x : !mem.M<0>, f32
}

// CHECK:     target triple = "{{.*}}"
// CHECK-DAG: @__gpuir_kernel_name_k = internal constant [2 x i8] c"k\00"
// CHECK-DAG: declare void @gpuirInit(i64)
// CHECK-DAG: declare ptr @gpuirHostAlloc(i64, i64)
// CHECK-DAG: declare void @gpuirMemcpyHtoD(ptr, ptr, i64, i64)
// CHECK-DAG: declare void @gpuirLaunchKernel(ptr, i64, i64, i64, ptr, ptr, i64, i64)
// CHECK:     define float @main(float %x)
// CHECK:       call void @gpuirInit(i64 0)
// CHECK:       call ptr @gpuirHostAlloc(i64 32, i64 1)
// CHECK:       call void @gpuirMemcpyHtoD(ptr %{{.*}}, ptr %{{.*}}, i64 32, i64 3)
// CHECK:       call void @gpuirLaunchKernel(ptr @__gpuir_kernel_name_k, i64 1, i64 8, i64 0, ptr null, ptr %{{.*}}, i64 1, i64 4)
// CHECK-DAG:   ret float %x
// CHECK-DAG:   store float %x, ptr

// OPT:       define float @main(float {{.*}}%x)
// OPT:         store <{{[0-9]+}} x float>
