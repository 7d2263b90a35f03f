// Parallel loops tiled before they are mapped (--scf-parallel-loop-tiling, tiles of 4x4 over a
// 10x7 and a 7x10 iteration space): each loop becomes an outer loop over the tiles and an inner
// one within a tile, whose bound is an affine.min of 4 and what is left. Canonicalized, the
// min's constant 4 is the block size that --convert-parallel-loops-to-gpu launches, with an
// scf.if that keeps the threads past the edge from running the body: tiles on the blocks,
// elements of a tile on the threads. A linalg.generic writes a[i][j] = 10 i + j, then
// linalg.transpose writes its transpose.
// Expected output: numpy, from the NUMPY lines (Inputs/numpy_expect.py prints it, and the
// CHECK lines are what it printed).
// RUN: mlir-opt-22 %s --convert-linalg-to-parallel-loops \
// RUN:   --scf-parallel-loop-tiling=parallel-loop-tile-sizes=4,4 --canonicalize \
// RUN:   --gpu-map-parallel-loops --convert-parallel-loops-to-gpu --lower-affine \
// RUN:   --canonicalize > %t.mlir
// RUN: filecheck %s --check-prefix=LOWERED < %t.mlir
// RUN: python %S/Inputs/numpy_expect.py %s | filecheck %s
// RUN: gpu-run %t.mlir --provider interp | filecheck %s
// RUN: gpu-run %t.mlir --provider cpu | filecheck %s

// 3 x 2 tiles of 4 x 4 threads; the transpose's 2 x 3 of them.
// LOWERED:      gpu.launch blocks({{.*}}) in (%{{.*}} = %c3, %{{.*}} = %c2, %{{.*}} = %c1) threads({{.*}}) in (%{{.*}} = %c4, %{{.*}} = %c4, %{{.*}} = %c1)
// LOWERED:        scf.if
// LOWERED:      gpu.launch blocks({{.*}}) in (%{{.*}} = %c2, %{{.*}} = %c3, %{{.*}} = %c1) threads({{.*}}) in (%{{.*}} = %c4, %{{.*}} = %c4, %{{.*}} = %c1)
// LOWERED:        scf.if

// NUMPY: i, j = np.indices((10, 7))
// NUMPY: show((10 * i + j).astype(np.float32).T)

// CHECK:      rank = 2 offset = 0 sizes = [7, 10] strides = [10, 1] data =
// CHECK-NEXT: {{\[\[}}0,   10,   20,   30,   40,   50,   60,   70,   80,   90],
// CHECK-NEXT:  [1,   11,   21,   31,   41,   51,   61,   71,   81,   91],
// CHECK-NEXT:  [2,   12,   22,   32,   42,   52,   62,   72,   82,   92],
// CHECK-NEXT:  [3,   13,   23,   33,   43,   53,   63,   73,   83,   93],
// CHECK-NEXT:  [4,   14,   24,   34,   44,   54,   64,   74,   84,   94],
// CHECK-NEXT:  [5,   15,   25,   35,   45,   55,   65,   75,   85,   95],
// CHECK-NEXT:  [6,   16,   26,   36,   46,   56,   66,   76,   86,   96]]

func.func private @printMemrefF32(memref<*xf32>)
func.func @main() {
  %a = memref.alloc() : memref<10x7xf32>
  %t = memref.alloc() : memref<7x10xf32>
  %ha = memref.cast %a : memref<10x7xf32> to memref<*xf32>
  %ht = memref.cast %t : memref<7x10xf32> to memref<*xf32>
  gpu.host_register %ha : memref<*xf32>
  gpu.host_register %ht : memref<*xf32>
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]} outs(%a : memref<10x7xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c10 = arith.constant 10 : index
    %t0 = arith.muli %i, %c10 : index
    %u = arith.addi %t0, %j : index
    %ui = arith.index_cast %u : index to i32
    %f = arith.sitofp %ui : i32 to f32
    linalg.yield %f : f32
  }
  linalg.transpose ins(%a : memref<10x7xf32>) outs(%t : memref<7x10xf32>) permutation = [1, 0]
  call @printMemrefF32(%ht) : (memref<*xf32>) -> ()
  return
}
