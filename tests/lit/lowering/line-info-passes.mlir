// RUN: gpu-opt %s -p fuse-map-reduce,lower-btensor-map-reduce --print-debuginfo | filecheck %s --check-prefix=PASS
// RUN: gpu-opt %s -t llvm | filecheck %s --check-prefix=LLVM
// RUN: gpu-opt %s -t ptx | filecheck %s --check-prefix=PTX
// RUN: gpu-opt %s -t host-llvm | filecheck %s --check-prefix=HOST

// Line info of what passes make: lower-btensor-map-reduce builds a kernel and the host code
// that launches it for each map-reduce op, and gives them the op's location (the combiner's
// ops keep theirs); fuse-map-reduce gives the fused op its consumer's. So the kernel's
// DISubprogram, its index arithmetic, loads and stores (.loc 1 25 3 in the PTX) and the host's
// launch point at the consumer, the second map_reduce (line 25); the multiplication is at line
// 22 and the addition at line 30, where the combiners have them.

func.func @main(%m: !mem.M<0>) -> !mem.M<0> {
  %m1, %x = buffer.init %m dense<[0.0, 1.0, 2.0, 3.0]> : tensor<4xf32>
  %zero = arith.constant 0.0 : f32
  %m2, %y = btensor.map_reduce %m1 ins(%x : !buffer.buf<4xf32>) init(%zero : f32)
      {out_rank = 1 : i64, shape = array<i64: 4>, maps = [affine_map<(i) -> (i)>],
      out_map = affine_map<(i) -> (i)>} combiner {
    ^bb0(%acc: f32, %v: f32):
      %two = arith.constant 2.0 : f32
      // (a line between the two, so that the checks tell the ops' lines apart)
      %r = arith.mulf %v, %two : f32
      btensor.yield %r : f32
  } : !buffer.buf<4xf32>
  %m3, %z = btensor.map_reduce %m2 ins(%y : !buffer.buf<4xf32>) init(%zero : f32)
      {out_rank = 1 : i64, shape = array<i64: 4>, maps = [affine_map<(i) -> (i)>],
      out_map = affine_map<(i) -> (i)>} combiner {
    ^bb0(%acc: f32, %v: f32):
      %one = arith.constant 1.0 : f32
      %s = arith.addf %v, %one : f32
      btensor.yield %s : f32
  } : !buffer.buf<4xf32>
  %m4 = buffer.print %m3, %z : !buffer.buf<4xf32>
  func.return %m4 : !mem.M<0>
}

// PASS:      func.func @map_reduce_kernel_0(
// PASS-NEXT:   %zero = arith.constant 0.000000e+00 : f32 loc("{{.*}}line-info-passes.mlir":15:3)
// PASS-NEXT:   arith.constant 4 : index loc("{{.*}}line-info-passes.mlir":25:3)
// PASS-NEXT:   arith.muli %group_id, %{{.*}} : index loc("{{.*}}line-info-passes.mlir":25:3)
// PASS-NEXT:   %flat = arith.addi %{{.*}}, %item_id : index loc("{{.*}}line-info-passes.mlir":25:3)
// PASS-NEXT:   mem.lea %in0, %flat {{.*}} loc("{{.*}}line-info-passes.mlir":25:3)
// PASS-NEXT:   mem.load %m1, %{{.*}} loc("{{.*}}line-info-passes.mlir":25:3)
// PASS-NEXT:   %two = arith.constant 2.000000e+00 : f32 loc("{{.*}}line-info-passes.mlir":20:7)
// PASS-NEXT:   %r = arith.mulf %{{.*}}, %two : f32 loc("{{.*}}line-info-passes.mlir":22:7)
// PASS-NEXT:   %one = arith.constant 1.000000e+00 : f32 loc("{{.*}}line-info-passes.mlir":29:7)
// PASS-NEXT:   %s = arith.addf %r, %one : f32 loc("{{.*}}line-info-passes.mlir":30:7)
// PASS-NEXT:   mem.lea %out, %flat {{.*}} loc("{{.*}}line-info-passes.mlir":25:3)
// PASS-NEXT:   mem.store {{.*}} loc("{{.*}}line-info-passes.mlir":25:3)
// PASS-NEXT:   func.return {{.*}} loc("{{.*}}line-info-passes.mlir":25:3)
// PASS-NEXT: } loc("{{.*}}line-info-passes.mlir":25:3)
// PASS:        gpu.auto_init %m1 loc("{{.*}}line-info-passes.mlir":25:3)
// PASS:        gpu.launch @map_reduce_kernel_0 {{.*}} loc("{{.*}}line-info-passes.mlir":25:3)
// PASS:        gpu.auto_deinit {{.*}} loc("{{.*}}line-info-passes.mlir":25:3)

// LLVM:       define ptx_kernel void @map_reduce_kernel_0({{.*}}) #{{[0-9]+}} !dbg ![[SP:[0-9]+]] {
// LLVM:         load float, {{.*}}, !dbg ![[OP:[0-9]+]]
// LLVM-NEXT:    %r = fmul float {{.*}}, !dbg ![[MUL:[0-9]+]]
// LLVM-NEXT:    %s = fadd float %r, 1.000000e+00, !dbg ![[ADD:[0-9]+]]
// LLVM-NEXT:    getelementptr inbounds float, {{.*}}, !dbg ![[OP]]
// LLVM-NEXT:    store float %s, {{.*}}, !dbg ![[OP]]
// LLVM-DAG:   ![[SP]] = distinct !DISubprogram(name: "map_reduce_kernel_0", {{.*}}line: 25,
// LLVM-DAG:   ![[OP]] = !DILocation(line: 25, column: 3, scope: ![[SP]])
// LLVM-DAG:   ![[MUL]] = !DILocation(line: 22, column: 7, scope: ![[SP]])
// LLVM-DAG:   ![[ADD]] = !DILocation(line: 30, column: 7, scope: ![[SP]])

// PTX-LABEL: .visible .entry map_reduce_kernel_0(
// PTX:         .loc 1 25 3
// PTX:         ld.global.b32
// PTX-NEXT:    .loc 1 22 7
// PTX-NEXT:    add.rn.f32
// PTX-NEXT:    .loc 1 30 7
// PTX-NEXT:    add.rn.f32
// PTX-NEXT:    .loc 1 25 3
// PTX-NEXT:    add.s64
// PTX-NEXT:    st.global.b32
// PTX:         .file 1 "{{.*}}lowering/line-info-passes.mlir"

// HOST:       call void @gpuirLaunchKernel({{.*}}), !dbg ![[LAUNCH:[0-9]+]]
// HOST:       ![[LAUNCH]] = !DILocation(line: 25, column: 3,
