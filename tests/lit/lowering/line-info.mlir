// RUN: gpu-opt %s -t llvm | filecheck %s --check-prefix=LLVM
// RUN: gpu-opt %s -t ptx | filecheck %s --check-prefix=PTX
// RUN: gpu-opt %s -t 'ptx{line-info=false}' | filecheck %s --check-prefix=OFF
// RUN: gpu-opt %s -t 'llvm{line-info=false}' | filecheck %s --check-prefix=OFF
// RUN: gpu-opt %s -t host-llvm | filecheck %s --check-prefix=HOST
// RUN: gpu-opt %s -t 'host-llvm{line-info=false}' | filecheck %s --check-prefix=OFF
// RUN: gpu-opt %s -p gpu-pipeline,device-to-llvm --print-debuginfo | filecheck %s --check-prefix=DIALECT

// Line info: each op's location (here the position of its first token in this file) becomes a
// !DILocation on the instructions made from it, in a DISubprogram per function; the NVPTX back
// end writes them as `.loc <file> <line> <column>` after `.file 1 "<directory>/<name>"`
// (DebugDirectivesOnly: no DWARF sections, as nvcc -lineinfo). Instructions that a lowering
// made without a location (the item id, read at the kernel's entry) get the function's.
// line-info=false leaves all of it out. The host module gets a DWARF line table
// (LineTablesOnly) of @main's ops. (LLVM turns `%v * 2.0` into `%v + %v`.)

func.func @scale(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
                 %group: index, %item: index, %x: !mem.ptr<!mem.array<4 x f32>, 1>)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) attributes {gpu.kernel} {
  %p = mem.lea %x, %item : !mem.ptr<!mem.array<4 x f32>, 1>
  %a1, %v = mem.load %m1, %p : !mem.ptr<f32, 1>
    %two = arith.constant 2.0 : f32
    %w = arith.mulf %v, %two : f32
  %b1 = mem.store %a1, %p, %w : !mem.ptr<f32, 1>
  func.return %b1, %m3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}

// LLVM:       define ptx_kernel void @scale(ptr addrspace(1) %x) #{{[0-9]+}} !dbg ![[SP:[0-9]+]] {
// LLVM:         call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg ![[ENTRY:[0-9]+]]
// LLVM:         getelementptr inbounds float, ptr addrspace(1) %x, i64 %{{.*}}, !dbg ![[LEA:[0-9]+]]
// LLVM-NEXT:    %v = load float, ptr addrspace(1) %{{.*}}, align 4, !dbg ![[LOAD:[0-9]+]]
// LLVM-NEXT:    %w = fmul float %v, 2.000000e+00, !dbg ![[MUL:[0-9]+]]
// LLVM-NEXT:    store float %w, ptr addrspace(1) %{{.*}}, align 4, !dbg ![[STORE:[0-9]+]]
// LLVM-NEXT:    ret void, !dbg ![[RET:[0-9]+]]
// LLVM:       !llvm.dbg.cu = !{![[CU:[0-9]+]]}
// LLVM-DAG:   ![[CU]] = distinct !DICompileUnit(language: DW_LANG_C, file: ![[FILE:[0-9]+]], producer: "gpuir", isOptimized: true, runtimeVersion: 0, emissionKind: DebugDirectivesOnly, nameTableKind: None)
// LLVM-DAG:   ![[FILE]] = !DIFile(filename: "line-info.mlir", directory: "{{.*}}lowering")
// LLVM-DAG:   !{i32 2, !"Dwarf Version", i32 2}
// LLVM-DAG:   !{i32 2, !"Debug Info Version", i32 3}
// LLVM-DAG:   ![[SP]] = distinct !DISubprogram(name: "scale", scope: ![[FILE]], file: ![[FILE]], line: 17, type: !{{[0-9]+}}, scopeLine: 17, spFlags: DISPFlagDefinition, unit: ![[CU]])
// LLVM-DAG:   ![[ENTRY]] = !DILocation(line: 17, column: 1, scope: ![[SP]])
// LLVM-DAG:   ![[LEA]] = !DILocation(line: 20, column: 3, scope: ![[SP]])
// LLVM-DAG:   ![[LOAD]] = !DILocation(line: 21, column: 3, scope: ![[SP]])
// LLVM-DAG:   ![[MUL]] = !DILocation(line: 23, column: 5, scope: ![[SP]])
// LLVM-DAG:   ![[STORE]] = !DILocation(line: 24, column: 3, scope: ![[SP]])
// LLVM-DAG:   ![[RET]] = !DILocation(line: 25, column: 3, scope: ![[SP]])

// The lowering keeps each op's location on the llvm ops made from it (KeepLocations); the
// item id, made at the kernel's entry, has none.
// DIALECT:      llvm.func @scale(%x: !llvm.ptr<1> loc(unknown)) attributes {gpu.kernel, nvvm.kernel} {
// DIALECT-NEXT:   llvm.call_intrinsic "llvm.nvvm.read.ptx.sreg.tid.x"() : () -> i32 loc(unknown)
// DIALECT-NEXT:   llvm.zext nneg %0 : i32 to i64 loc(unknown)
// DIALECT-NEXT:   llvm.getelementptr inbounds %x[%1] {{.*}} loc("{{.*}}line-info.mlir":20:3)
// DIALECT-NEXT:   %v = llvm.load %2 : !llvm.ptr<1> -> f32 loc("{{.*}}line-info.mlir":21:3)
// DIALECT-NEXT:   %two = llvm.mlir.constant(2.000000e+00 : f32) : f32 loc("{{.*}}line-info.mlir":22:5)
// DIALECT-NEXT:   %w = llvm.fmul %v, %two : f32 loc("{{.*}}line-info.mlir":23:5)
// DIALECT-NEXT:   llvm.store %w, %2 : f32, !llvm.ptr<1> loc("{{.*}}line-info.mlir":24:3)
// DIALECT-NEXT:   llvm.return loc("{{.*}}line-info.mlir":25:3)
// DIALECT-NEXT: } loc("{{.*}}line-info.mlir":17:1)

// PTX-LABEL: .visible .entry scale(
// PTX:         .loc 1 17 0
// PTX:         .loc 1 17 1
// PTX-NEXT:    mov.u32 %r{{[0-9]+}}, %tid.x;
// PTX:         .loc 1 21 3
// PTX-NEXT:    ld.global.b32
// PTX-NEXT:    .loc 1 23 5
// PTX-NEXT:    add.rn.f32
// PTX-NEXT:    .loc 1 24 3
// PTX-NEXT:    st.global.b32
// PTX-NEXT:    .loc 1 25 3
// PTX-NEXT:    ret;
// PTX:         .file 1 "{{.*}}lowering/line-info.mlir"

// OFF-NOT: .loc
// OFF-NOT: .file
// OFF-NOT: !dbg
// OFF-NOT: DILocation
// OFF-NOT: DICompileUnit

func.func @main(%m: !mem.M<0>) -> !mem.M<0> {
  %m0, %m1, %m4 = gpu.init %m
  %d1, %dev = gpu.alloc.block %m1 : !mem.ptr<!mem.array<4 x f32>, 1>
  %s = gpu.default_stream
  %one = arith.constant 1 : index
  %four = arith.constant 4 : index
  %l0, %l1, %l4 = gpu.launch @scale grid(%one, %four) stream(%s) mems(%m0, %d1, %m4)
      args(%dev) : (!mem.ptr<!mem.array<4 x f32>, 1>)
  %f1 = gpu.free.block %l1, %dev : !mem.ptr<!mem.array<4 x f32>, 1>
  %done = gpu.deinit %l0, %f1, %l4
  func.return %done : !mem.M<0>
}

// HOST:       define void @main() {{.*}}!dbg ![[MAIN:[0-9]+]] {
// HOST:         call {{.*}}@gpuirLaunch{{.*}}, !dbg ![[LAUNCH:[0-9]+]]
// HOST-DAG:   emissionKind: LineTablesOnly
// HOST-DAG:   !{i32 2, !"Dwarf Version", i32 4}
// HOST-DAG:   ![[MAIN]] = distinct !DISubprogram(name: "main", {{.*}}line: 81,
// HOST-DAG:   ![[LAUNCH]] = !DILocation(line: 87, column: 3, scope: ![[MAIN]])
