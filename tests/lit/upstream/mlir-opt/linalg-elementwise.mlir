// Three elementwise linalg.generic ops (two that make their output from linalg.index, one that
// reads a matrix and a row broadcast along its first dimension, with math.absf and
// arith.maximumf) lowered to parallel loops and mapped to the GPU: each becomes a gpu.launch
// of one block per element (MLIR's greedy mapping puts an untiled loop on the blocks).
// Expected output: numpy, from the NUMPY lines (Inputs/numpy_expect.py prints it, and the
// CHECK lines are what it printed).
// RUN: mlir-opt-22 %s --convert-linalg-to-parallel-loops --gpu-map-parallel-loops \
// RUN:   --convert-parallel-loops-to-gpu --lower-affine --canonicalize > %t.mlir
// RUN: filecheck %s --check-prefix=LOWERED < %t.mlir
// RUN: python %S/Inputs/numpy_expect.py %s | filecheck %s
// RUN: gpu-run %t.mlir --provider interp | filecheck %s
// RUN: gpu-run %t.mlir --provider cpu | filecheck %s

// LOWERED-COUNT-3: gpu.launch blocks({{.*}}) in ({{.*}}) threads({{.*}}) in (%{{.*}} = %c1, %{{.*}} = %c1, %{{.*}} = %c1)

// NUMPY: i, j = np.indices((6, 8))
// NUMPY: a = (i * j).astype(np.float32)
// NUMPY: b = (np.arange(8) * 0.5).astype(np.float32)
// NUMPY: show(np.maximum(np.abs(a - b), b))  # b broadcast along the rows

// CHECK:      rank = 2 offset = 0 sizes = [6, 8] strides = [8, 1] data =
// CHECK-NEXT: {{\[\[}}0,   0.5,   1,   1.5,   2,   2.5,   3,   3.5],
// CHECK-NEXT:  [0,   0.5,   1,   1.5,   2,   2.5,   3,   3.5],
// CHECK-NEXT:  [0,   1.5,   3,   4.5,   6,   7.5,   9,   10.5],
// CHECK-NEXT:  [0,   2.5,   5,   7.5,   10,   12.5,   15,   17.5],
// CHECK-NEXT:  [0,   3.5,   7,   10.5,   14,   17.5,   21,   24.5],
// CHECK-NEXT:  [0,   4.5,   9,   13.5,   18,   22.5,   27,   31.5]]

#ij = affine_map<(i, j) -> (i, j)>
#j = affine_map<(i, j) -> (j)>
func.func private @printMemrefF32(memref<*xf32>)
func.func @main() {
  %a = memref.alloc() : memref<6x8xf32>
  %b = memref.alloc() : memref<8xf32>
  %c = memref.alloc() : memref<6x8xf32>
  %ha = memref.cast %a : memref<6x8xf32> to memref<*xf32>
  %hb = memref.cast %b : memref<8xf32> to memref<*xf32>
  %hc = memref.cast %c : memref<6x8xf32> to memref<*xf32>
  gpu.host_register %ha : memref<*xf32>
  gpu.host_register %hb : memref<*xf32>
  gpu.host_register %hc : memref<*xf32>
  linalg.generic {indexing_maps = [#ij], iterator_types = ["parallel", "parallel"]}
      outs(%a : memref<6x8xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %k = arith.muli %i, %j : index
    %ki = arith.index_cast %k : index to i32
    %f = arith.sitofp %ki : i32 to f32
    linalg.yield %f : f32
  }
  linalg.generic {indexing_maps = [affine_map<(j) -> (j)>], iterator_types = ["parallel"]}
      outs(%b : memref<8xf32>) {
  ^bb0(%o: f32):
    %j = linalg.index 0 : index
    %ji = arith.index_cast %j : index to i32
    %f = arith.sitofp %ji : i32 to f32
    %half = arith.constant 0.5 : f32
    %g = arith.mulf %f, %half : f32
    linalg.yield %g : f32
  }
  linalg.generic {indexing_maps = [#ij, #j, #ij], iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : memref<6x8xf32>, memref<8xf32>) outs(%c : memref<6x8xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.subf %x, %y : f32
    %m = math.absf %s : f32
    %q = arith.maximumf %m, %y : f32
    linalg.yield %q : f32
  }
  call @printMemrefF32(%hc) : (memref<*xf32>) -> ()
  return
}
