// RUN: ROUNDTRIP
// RUN: GENERIC_ROUNDTRIP
// RUN: gpu-opt %s -p convert-gpu-to-nvvm | filecheck %s --check-prefix=LOWERED

// The part of MLIR's nvvm dialect that MLIR's GPU lowering writes: special registers and the
// block barrier. convert-gpu-to-nvvm makes them the intrinsic calls of gpuir's own lowering.
builtin.module attributes {gpu.device} {
  llvm.func @k(%p: !llvm.ptr<1>) attributes {nvvm.kernel} {
    %t = nvvm.read.ptx.sreg.tid.x : i32
    %ty = nvvm.read.ptx.sreg.tid.y : i32
    %n = nvvm.read.ptx.sreg.ntid.z : i32
    %b = nvvm.read.ptx.sreg.ctaid.x : i32
    %g = nvvm.read.ptx.sreg.nctaid.y : i32
    %l = nvvm.read.ptx.sreg.laneid : i32
    %w = nvvm.read.ptx.sreg.warpsize : i32
    %s1 = llvm.add %t, %ty : i32
    %s2 = llvm.add %s1, %n : i32
    %s3 = llvm.add %s2, %b : i32
    %s4 = llvm.add %s3, %g : i32
    %s5 = llvm.add %s4, %l : i32
    %s6 = llvm.add %s5, %w : i32
    nvvm.barrier0
    llvm.store %s6, %p : i32, !llvm.ptr<1>
    llvm.return
  }
}

// CHECK:      %t = nvvm.read.ptx.sreg.tid.x : i32
// CHECK-NEXT: %ty = nvvm.read.ptx.sreg.tid.y : i32
// CHECK-NEXT: %n = nvvm.read.ptx.sreg.ntid.z : i32
// CHECK-NEXT: %b = nvvm.read.ptx.sreg.ctaid.x : i32
// CHECK-NEXT: %g = nvvm.read.ptx.sreg.nctaid.y : i32
// CHECK-NEXT: %l = nvvm.read.ptx.sreg.laneid : i32
// CHECK-NEXT: %w = nvvm.read.ptx.sreg.warpsize : i32
// CHECK:      nvvm.barrier0

// CHECK-GENERIC: %t = "nvvm.read.ptx.sreg.tid.x"() : () -> i32
// CHECK-GENERIC: "nvvm.barrier0"() : () -> ()

// LOWERED:      %t = llvm.call_intrinsic "llvm.nvvm.read.ptx.sreg.tid.x"() : () -> i32
// LOWERED-NEXT: %ty = llvm.call_intrinsic "llvm.nvvm.read.ptx.sreg.tid.y"() : () -> i32
// LOWERED:      %w = llvm.call_intrinsic "llvm.nvvm.read.ptx.sreg.warpsize"() : () -> i32
// LOWERED:      %{{.*}} = llvm.mlir.constant(0 : i32) : i32
// LOWERED-NEXT: llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.all"(%{{.*}}) : (i32) -> ()
// LOWERED-NOT:  nvvm.
