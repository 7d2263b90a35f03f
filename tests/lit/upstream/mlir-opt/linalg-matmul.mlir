// A linalg matmul taken to the GPU by MLIR's own passes, run unchanged: mlir-opt-22 maps its
// parallel loops to gpu.launch regions (each marked {SCFToGPU_visited}), lowers the affine maps,
// and gpu-run imports and runs what it wrote. C = A B with A[i][k] = i + k, B[k][j] = k - j:
// C[i][j] = sum over k < 3 of (i + k)(k - j), computed on both providers. Expected output:
// numpy, from the NUMPY lines (Inputs/numpy_expect.py prints it, and the CHECK lines are what
// it printed).
// RUN: mlir-opt-22 %s --convert-linalg-to-parallel-loops --gpu-map-parallel-loops \
// RUN:   --convert-parallel-loops-to-gpu --lower-affine --canonicalize > %t.mlir
// RUN: python %S/Inputs/numpy_expect.py %s | filecheck %s
// RUN: gpu-run %t.mlir --provider interp | filecheck %s
// RUN: gpu-run %t.mlir --provider cpu | filecheck %s

// NUMPY: a = (np.arange(4)[:, None] + np.arange(3)).astype(np.float32)  # a[i][k] = i + k
// NUMPY: b = (np.arange(3)[:, None] - np.arange(5)).astype(np.float32)  # b[k][j] = k - j
// NUMPY: show(a @ b)

// CHECK:      rank = 2 offset = 0 sizes = [4, 5] strides = [5, 1] data =
// CHECK-NEXT: {{\[\[}}5,   2,   -1,   -4,   -7],
// CHECK-NEXT:  [8,   2,   -4,   -10,   -16],
// CHECK-NEXT:  [11,   2,   -7,   -16,   -25],
// CHECK-NEXT:  [14,   2,   -10,   -22,   -34]]

func.func @main() {
  %a = memref.alloc() : memref<4x3xf32>
  %b = memref.alloc() : memref<3x5xf32>
  %c = memref.alloc() : memref<4x5xf32>
  %ha = memref.cast %a : memref<4x3xf32> to memref<*xf32>
  %hb = memref.cast %b : memref<3x5xf32> to memref<*xf32>
  %hc = memref.cast %c : memref<4x5xf32> to memref<*xf32>
  gpu.host_register %ha : memref<*xf32>
  gpu.host_register %hb : memref<*xf32>
  gpu.host_register %hc : memref<*xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  scf.for %i = %c0 to %c4 step %c1 {
    scf.for %k = %c0 to %c3 step %c1 {
      %s = arith.addi %i, %k : index
      %si = arith.index_cast %s : index to i32
      %v = arith.sitofp %si : i32 to f32
      memref.store %v, %a[%i, %k] : memref<4x3xf32>
    }
  }
  scf.for %k = %c0 to %c3 step %c1 {
    scf.for %j = %c0 to %c5 step %c1 {
      %d = arith.subi %k, %j : index
      %di = arith.index_cast %d : index to i32
      %v = arith.sitofp %di : i32 to f32
      memref.store %v, %b[%k, %j] : memref<3x5xf32>
    }
  }
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<4x5xf32>)
  linalg.matmul ins(%a, %b : memref<4x3xf32>, memref<3x5xf32>) outs(%c : memref<4x5xf32>)
  call @printMemrefF32(%hc) : (memref<*xf32>) -> ()
  return
}
func.func private @printMemrefF32(memref<*xf32>)
