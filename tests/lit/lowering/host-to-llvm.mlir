// RUN: gpu-opt %s -p gpu-pipeline,host-to-llvm | filecheck %s

// host-to-llvm lowers the @host module to the llvm dialect and leaves @device alone: @main is
// an external C function of its scalars (the tokens are gone), loops are blocks, host memory
// comes from gpuirHostAlloc, loads and stores are plain llvm ops, the gpu ops runtime calls.

func.func @k(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>, %g: index,
             %i: index, %p: !mem.ptr<!mem.array<4 x i32>, 1>)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
  %e = mem.lea %p, %i : !mem.ptr<!mem.array<4 x i32>, 1>
  %v = arith.index_cast %i : index to i32
  %n = mem.store %m1, %e, %v : !mem.ptr<i32, 1>
  func.return %n, %m3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}

func.func @main(%m: !mem.M<0>, %scale: i32) -> (!mem.M<0>, i32, f32) {
  %m0, %m1, %m4 = gpu.init %m
  %h0, %host = mem.alloc %m0 : !mem.ptr<!mem.array<4 x i32>, 0>
  %d1, %dev = gpu.alloc.block %m1 : !mem.ptr<!mem.array<4 x i32>, 1>
  %s = gpu.default_stream
  %one = arith.constant 1 : index
  %four = arith.constant 4 : index
  %l0, %l1, %l4 = gpu.launch @k grid(%one, %four) stream(%s) mems(%h0, %d1, %m4)
      args(%dev) : (!mem.ptr<!mem.array<4 x i32>, 1>)
  %c0, %c1 = gpu.copy_to_host.block %l0, %l1, %dev -> %host
      : !mem.ptr<!mem.array<4 x i32>, 1> -> !mem.ptr<!mem.array<4 x i32>, 0>
  %zero = arith.constant 0 : index
  %init = arith.constant 0 : i32
  %t, %sum = scf.for %k = %zero to %four step %one iter_args(%tok = %c0, %acc = %init)
      -> (!mem.M<0>, i32) {
    %e = mem.lea %host, %k : !mem.ptr<!mem.array<4 x i32>, 0>
    %tok2, %x = mem.load %tok, %e : !mem.ptr<i32, 0>
    %y = arith.muli %x, %scale : i32
    %acc2 = arith.addi %acc, %y : i32
    scf.yield %tok2, %acc2 : !mem.M<0>, i32
  }
  printf.print_format "sum {}\n", %sum : i32
  %f1 = gpu.free.block %c1, %dev : !mem.ptr<!mem.array<4 x i32>, 1>
  %f0 = mem.free %t, %host : !mem.ptr<!mem.array<4 x i32>, 0>
  %done = gpu.deinit %f0, %f1, %l4
  %half = arith.constant 0.5 : f32
  func.return %done, %sum, %half : !mem.M<0>, i32, f32
}

// CHECK:      builtin.module @host {
// CHECK-NOT:    func.func
// CHECK:        llvm.func @main(%{{.*}}: i32) -> !llvm.struct<(i32, f32)> {
// CHECK:          llvm.call @gpuirInit(
// CHECK:          llvm.call @gpuirHostAlloc(
// CHECK:          llvm.call @gpuirMemAlloc(
// CHECK:          llvm.call @gpuirLaunchKernel(
// CHECK:          llvm.call @gpuirMemcpyDtoH(
// CHECK:          llvm.cond_br
// CHECK:          llvm.load %{{.*}} : !llvm.ptr -> i32
// CHECK:          llvm.mul
// CHECK:          llvm.call @gpuirPrintString(
// CHECK:          llvm.call @gpuirPrintInt(
// CHECK:          llvm.call @gpuirDeinit(
// CHECK:          llvm.insertvalue
// CHECK:          llvm.return %{{.*}} : !llvm.struct<(i32, f32)>
// CHECK:      builtin.module @device attributes {gpu.device} {
// CHECK:        func.func @k(
