// --gpu-decompose-memrefs: in each gpu.launch, a load or store of a memref becomes a load or
// store of rank 0 of a memref.reinterpret_cast of the memref's base buffer at the element's
// position (offset + i * stride0 + j), the base buffer, offset, sizes and strides coming from
// a memref.extract_strided_metadata that the pass puts on the host, where the memref is made.
// Two pipelines: canonicalized, the casts take the memrefs themselves (the metadata folds
// away); outlined as the pass leaves it, the kernels take the base buffers (memref<f32>), and
// gpuir makes each kernel at its launch, for the memory given. c = a * b^T elementwise, tiled by 4x4 onto blocks and threads.
// Expected output: numpy, from the NUMPY lines (Inputs/numpy_expect.py prints it, and the
// CHECK lines are what it printed).
// RUN: mlir-opt-22 %s --convert-linalg-to-parallel-loops \
// RUN:   --scf-parallel-loop-tiling=parallel-loop-tile-sizes=4,4 --canonicalize \
// RUN:   --gpu-map-parallel-loops --convert-parallel-loops-to-gpu --gpu-decompose-memrefs \
// RUN:   --lower-affine --canonicalize > %t.mlir
// RUN: filecheck %s --check-prefix=LOWERED < %t.mlir
// RUN: mlir-opt-22 %s --convert-linalg-to-parallel-loops \
// RUN:   --scf-parallel-loop-tiling=parallel-loop-tile-sizes=4,4 --canonicalize \
// RUN:   --gpu-map-parallel-loops --convert-parallel-loops-to-gpu --gpu-decompose-memrefs \
// RUN:   --lower-affine --gpu-kernel-outlining > %t.outlined.mlir
// RUN: filecheck %s --check-prefix=OUTLINED < %t.outlined.mlir
// RUN: python %S/Inputs/numpy_expect.py %s | filecheck %s
// RUN: gpu-run %t.mlir --provider interp | filecheck %s
// RUN: gpu-run %t.mlir --provider cpu | filecheck %s
// RUN: gpu-run %t.outlined.mlir --provider interp | filecheck %s
// RUN: gpu-run %t.outlined.mlir --provider cpu | filecheck %s

// LOWERED:      gpu.launch
// LOWERED:        %[[E:.*]] = memref.reinterpret_cast %{{.*}} to offset: [%{{.*}}], sizes: [], strides: [] : memref<5x6xf32> to memref<f32, strided<[], offset: ?>>
// LOWERED-NEXT:   memref.store %{{.*}}, %[[E]][] : memref<f32, strided<[], offset: ?>>
// LOWERED:        %[[F:.*]] = memref.reinterpret_cast %{{.*}} to offset: [%{{.*}}], sizes: [], strides: [] : memref<5x6xf32> to memref<f32, strided<[], offset: ?>>
// LOWERED-NEXT:   memref.load %[[F]][] : memref<f32, strided<[], offset: ?>>

// OUTLINED:     memref.extract_strided_metadata %{{.*}} : memref<6x5xf32> -> memref<f32>, index, index, index, index, index
// OUTLINED:     gpu.launch_func @main_kernel_1::@main_kernel {{.*}} args({{.*}} : memref<f32>, {{.*}} : memref<f32>, {{.*}} : memref<f32>)
// OUTLINED:     gpu.func @main_kernel({{.*}}: memref<f32>{{.*}}) kernel
// OUTLINED:       memref.reinterpret_cast %{{.*}} to offset: [%{{.*}}], sizes: [], strides: [] : memref<f32> to memref<f32, strided<[], offset: ?>>

// NUMPY: i, j = np.indices((5, 6))
// NUMPY: a = (i + j * j).astype(np.float32)
// NUMPY: j, i = np.indices((6, 5))
// NUMPY: b = (j - 2 * i).astype(np.float32)
// NUMPY: show(a * b.T)

// CHECK:      rank = 2 offset = 0 sizes = [5, 6] strides = [6, 1] data =
// CHECK-NEXT: {{\[\[}}0,   1,   8,   27,   64,   125],
// CHECK-NEXT:  [-2,   -2,   0,   10,   34,   78],
// CHECK-NEXT:  [-8,   -9,   -12,   -11,   0,   27],
// CHECK-NEXT:  [-18,   -20,   -28,   -36,   -38,   -28],
// CHECK-NEXT:  [-32,   -35,   -48,   -65,   -80,   -87]]

#ij = affine_map<(i, j) -> (i, j)>
#ji = affine_map<(i, j) -> (j, i)>
func.func private @printMemrefF32(memref<*xf32>)
func.func @main() {
  %a = memref.alloc() : memref<5x6xf32>
  %b = memref.alloc() : memref<6x5xf32>
  %c = memref.alloc() : memref<5x6xf32>
  %ha = memref.cast %a : memref<5x6xf32> to memref<*xf32>
  %hb = memref.cast %b : memref<6x5xf32> to memref<*xf32>
  %hc = memref.cast %c : memref<5x6xf32> to memref<*xf32>
  gpu.host_register %ha : memref<*xf32>
  gpu.host_register %hb : memref<*xf32>
  gpu.host_register %hc : memref<*xf32>
  linalg.generic {indexing_maps = [#ij], iterator_types = ["parallel", "parallel"]}
      outs(%a : memref<5x6xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %jj = arith.muli %j, %j : index
    %s = arith.addi %i, %jj : index
    %si = arith.index_cast %s : index to i32
    %f = arith.sitofp %si : i32 to f32
    linalg.yield %f : f32
  }
  linalg.generic {indexing_maps = [#ij], iterator_types = ["parallel", "parallel"]}
      outs(%b : memref<6x5xf32>) {
  ^bb0(%o: f32):
    %j = linalg.index 0 : index
    %i = linalg.index 1 : index
    %i2 = arith.addi %i, %i : index
    %d = arith.subi %j, %i2 : index
    %di = arith.index_cast %d : index to i32
    %f = arith.sitofp %di : i32 to f32
    linalg.yield %f : f32
  }
  linalg.generic {indexing_maps = [#ij, #ji, #ij], iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : memref<5x6xf32>, memref<6x5xf32>) outs(%c : memref<5x6xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %p = arith.mulf %x, %y : f32
    linalg.yield %p : f32
  }
  call @printMemrefF32(%hc) : (memref<*xf32>) -> ()
  return
}
