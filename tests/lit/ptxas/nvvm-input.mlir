// Device code as MLIR 22 lowers it (`mlir-opt-22 --convert-gpu-to-nvvm` on a gpu.func that
// stores its thread id into a memref, then waits at gpu.barrier): llvm dialect with a memref
// descriptor built from llvm.mlir.poison, nvvm special registers and nvvm.barrier0. gpuir
// reads it as a device module and makes PTX that ptxas assembles. (MLIR writes its GEP as
// `llvm.getelementptr inbounds|nuw`, which xDSL does not read: docs/xdsl-gaps.md; here it is
// `inbounds`.)
// RUN: gpu-opt %s -t ptx > %t.ptx
// RUN: ptxas -arch=sm_80 %t.ptx -o %t.cubin
// RUN: filecheck %s < %t.ptx
// CHECK: .visible .entry k(
// CHECK: mov.u32 {{.*}}%tid.x;
// CHECK: st.global.b32
// CHECK: bar.sync {{.*}}0;
builtin.module attributes {gpu.device} {
  llvm.func @k(%arg0: !llvm.ptr<1>, %arg1: !llvm.ptr<1>, %arg2: i64, %arg3: i64, %arg4: i64) attributes {gpu.kernel, nvvm.kernel} {
    %0 = llvm.mlir.poison : !llvm.struct<(ptr<1>, ptr<1>, i64, array<1 x i64>, array<1 x i64>)>
    %1 = llvm.insertvalue %arg0, %0[0] : !llvm.struct<(ptr<1>, ptr<1>, i64, array<1 x i64>, array<1 x i64>)>
    %2 = llvm.insertvalue %arg1, %1[1] : !llvm.struct<(ptr<1>, ptr<1>, i64, array<1 x i64>, array<1 x i64>)>
    %3 = llvm.insertvalue %arg2, %2[2] : !llvm.struct<(ptr<1>, ptr<1>, i64, array<1 x i64>, array<1 x i64>)>
    %4 = llvm.insertvalue %arg3, %3[3, 0] : !llvm.struct<(ptr<1>, ptr<1>, i64, array<1 x i64>, array<1 x i64>)>
    %5 = llvm.insertvalue %arg4, %4[4, 0] : !llvm.struct<(ptr<1>, ptr<1>, i64, array<1 x i64>, array<1 x i64>)>
    %6 = nvvm.read.ptx.sreg.tid.x : i32
    %7 = llvm.sext %6 : i32 to i64
    %8 = llvm.trunc %7 : i64 to i32
    %9 = llvm.extractvalue %5[1] : !llvm.struct<(ptr<1>, ptr<1>, i64, array<1 x i64>, array<1 x i64>)>
    %10 = llvm.getelementptr inbounds %9[%7] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i32
    llvm.store %8, %10 : i32, !llvm.ptr<1>
    nvvm.barrier0
    llvm.return
  }
}
