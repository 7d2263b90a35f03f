// RUN: gpu-opt %s -p convert-gpu-host-to-llvm | filecheck %s
// RUN: gpu-opt %s -p convert-gpu-host-to-llvm --mlir-pass-statistics -o /dev/null 2>&1 | filecheck %s --check-prefix=STATS

// The statistics of the whole file: the ten gpu and heap ops of @main, one of them a launch.
// STATS:      {{^}}ConvertGpuHostToLlvm
// STATS-NEXT:   (S)  1 num-launches-lowered - Number of gpu.launch ops made gpuirLaunchKernel
// STATS-NEXT:   (S) 10 num-ops-lowered      - Number of host gpu and heap ops lowered to the llvm dialect

// The host's gpu ops and heap ops become calls of the runtime's C ABI (runtime/gpuir_runtime.h),
// each with its op id last (the ops that call the runtime, in walk order); memory tokens pass
// through (erase-mem-tokens removes them later). A ? array is allocated by extent x element
// size and copied with -1 bytes (the rest of the source allocation); a launch's arguments go
// into 8-byte slots at the function's entry, the kernel by its name.

builtin.module @host {
  func.func @main(%m: !mem.M<0>, %n: index, %x: f32) -> !mem.M<0> {
    %m0, %m1, %m4 = gpu.init %m
    %h0, %host = mem.alloc %m0, %n : !mem.ptr<!mem.array<? x f32>, 0>
    %d1, %dev = gpu.alloc.block %m1, %n : !mem.ptr<!mem.array<? x f32>, 1>
    %c0, %c1 = gpu.copy_to_device.block %h0, %d1, %host -> %dev
        : !mem.ptr<!mem.array<? x f32>, 0> -> !mem.ptr<!mem.array<? x f32>, 1>
    %stream = gpu.default_stream
    %one = arith.constant 1 : index
    %l0, %l1, %l4 = gpu.launch @device::@k grid(%one, %n) stream(%stream)
        mems(%c0, %c1, %m4) args(%dev, %x) : (!mem.ptr<!mem.array<? x f32>, 1>, f32)
    %s0, %s1 = gpu.copy_to_host.block %l0, %l1, %dev -> %host
        : !mem.ptr<!mem.array<? x f32>, 1> -> !mem.ptr<!mem.array<? x f32>, 0>
    %f1 = gpu.free.block %s1, %dev : !mem.ptr<!mem.array<? x f32>, 1>
    %f0 = mem.free %s0, %host : !mem.ptr<!mem.array<? x f32>, 0>
    %done = gpu.deinit %f0, %f1, %l4
    func.return %done : !mem.M<0>
  }
}
builtin.module @device attributes {gpu.device} {
  func.func @k(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>, %g: index,
               %i: index, %p: !mem.ptr<!mem.array<? x f32>, 1>, %x: f32)
      -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) attributes {gpu.kernel} {
    func.return %m1, %m3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
  }
}

// CHECK:      llvm.mlir.global internal constant @__gpuir_kernel_name_k("k\00")
// CHECK:      func.func @main(
// CHECK:        %[[SLOTS:.*]] = llvm.alloca %{{.*}} x !llvm.array<2 x i64> {alignment = 16 : i64}
// CHECK:        llvm.call @gpuirInit(%{{.*}}) : (i64) -> ()
// CHECK:        %[[BYTES:.*]] = llvm.mul %{{.*}}, %{{.*}} : i64
// CHECK:        llvm.call @gpuirHostAlloc(%[[BYTES]], %{{.*}}) : (i64, i64) -> !llvm.ptr
// CHECK:        %[[DEV:.*]] = llvm.call @gpuirMemAlloc(%{{.*}}, %{{.*}}) : (i64, i64) -> !llvm.ptr
// CHECK:        llvm.addrspacecast %[[DEV]] : !llvm.ptr to !llvm.ptr<1>
// CHECK:        %[[ALL:.*]] = llvm.mlir.constant(-1) : i64
// CHECK:        llvm.call @gpuirMemcpyHtoD(%{{.*}}, %{{.*}}, %[[ALL]], %{{.*}}) : (!llvm.ptr, !llvm.ptr, i64, i64) -> ()
// CHECK:        %[[NULL:.*]] = llvm.mlir.zero : !llvm.ptr
// CHECK:        llvm.getelementptr %[[SLOTS]][0] : (!llvm.ptr) -> !llvm.ptr, i64
// CHECK:        llvm.getelementptr %[[SLOTS]][1] : (!llvm.ptr) -> !llvm.ptr, i64
// CHECK:        llvm.store %{{.*}}, %{{.*}} : f32, !llvm.ptr
// CHECK:        %[[NAME:.*]] = llvm.mlir.addressof @__gpuir_kernel_name_k : !llvm.ptr
// CHECK:        %[[COUNT:.*]] = llvm.mlir.constant(2) : i64
// CHECK:        %[[ID:.*]] = llvm.mlir.constant(4) : i64
// CHECK:        llvm.call @gpuirLaunchKernel(%[[NAME]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[SLOTS]], %[[COUNT]], %[[ID]])
// CHECK:        llvm.call @gpuirMemcpyDtoH(
// CHECK:        llvm.call @gpuirMemFree(
// CHECK:        llvm.call @gpuirHostFree(
// CHECK:        llvm.call @gpuirDeinit(
// CHECK-NOT:    = gpu.
// CHECK:      builtin.module @device attributes {gpu.device}
