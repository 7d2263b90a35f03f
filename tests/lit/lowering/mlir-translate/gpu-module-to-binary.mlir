// `-t mlir-gpu` writes the device module as upstream MLIR's gpu.module, which MLIR 22's own
// `--gpu-module-to-binary` compiles to PTX: the kernel is a `.entry` of the same name.
// RUN: gpu-opt %s -t mlir-gpu | mlir-opt-22 --gpu-module-to-binary=format=isa | filecheck %s
// RUN: gpu-opt %s -t 'mlir-gpu{sm=90 ptx=8.0}' | mlir-opt-22 --gpu-module-to-binary=format=isa | filecheck %s --check-prefix=SM90

// (MLIR prints the target without its triple, which is the default one.)
// CHECK: gpu.binary @device  [#gpu.object<#nvvm.target<O = 3, chip = "sm_80", features = "+ptx80">, {{.*}}assembly = "
// CHECK-SAME: .target sm_80\0A
// CHECK-SAME: .visible .entry scale(
// SM90: chip = "sm_90"
// SM90-SAME: .target sm_90

func.func @scale(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
                 %g: index, %i: index, %x: !mem.ptr<!mem.array<? x f32>, 1>)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) attributes {gpu.kernel} {
  %p = mem.lea %x, %i : !mem.ptr<!mem.array<? x f32>, 1>
  %n1, %v = mem.load %m1, %p : !mem.ptr<f32, 1>
  %two = arith.constant 2.0 : f32
  %w = arith.mulf %v, %two : f32
  %n2 = mem.store %n1, %p, %w : !mem.ptr<f32, 1>
  func.return %n2, %m3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}

func.func @main(%m: !mem.M<0>) -> !mem.M<0> {
  %m0, %m1, %m4 = gpu.init %m
  %four = arith.constant 4 : index
  %a1, %x = gpu.alloc.block %m1, %four : !mem.ptr<!mem.array<? x f32>, 1>
  %stream = gpu.default_stream
  %one = arith.constant 1 : index
  %l0, %l1, %l4 = gpu.launch @scale grid(%one, %four) stream(%stream) mems(%m0, %a1, %m4)
      args(%x) : (!mem.ptr<!mem.array<? x f32>, 1>)
  %f1 = gpu.free.block %l1, %x : !mem.ptr<!mem.array<? x f32>, 1>
  %done = gpu.deinit %l0, %f1, %l4
  func.return %done : !mem.M<0>
}
