// linalg.fill and linalg.matmul of a 5x3 and a 3x6 matrix, their parallel loops tiled by 2x4
// with --scf-parallel-loop-tiling's no-min-max-bounds: the loops within a tile have the
// constant bounds 2 and 4, and an scf.if in their body checks that the element is inside the
// matrix (rather than an affine.min bound). Mapped to the GPU: 3x2 blocks of 2x4 threads, the
// matmul's reduction an scf.for in the kernel, under the scf.if.
// Expected output: numpy, from the NUMPY lines (Inputs/numpy_expect.py prints it, and the
// CHECK lines are what it printed).
// RUN: mlir-opt-22 %s --convert-linalg-to-parallel-loops \
// RUN:   "--scf-parallel-loop-tiling=parallel-loop-tile-sizes=2,4 no-min-max-bounds" \
// RUN:   --gpu-map-parallel-loops --convert-parallel-loops-to-gpu --lower-affine \
// RUN:   --canonicalize > %t.mlir
// RUN: filecheck %s --check-prefix=LOWERED < %t.mlir
// RUN: python %S/Inputs/numpy_expect.py %s | filecheck %s
// RUN: gpu-run %t.mlir --provider interp | filecheck %s
// RUN: gpu-run %t.mlir --provider cpu | filecheck %s

// LOWERED:      gpu.launch blocks({{.*}}) in (%{{.*}} = %c3, %{{.*}} = %c2, %{{.*}} = %c1) threads({{.*}}) in (%{{.*}} = %c2, %{{.*}} = %c4, %{{.*}} = %c1)
// LOWERED:      gpu.launch blocks({{.*}}) in (%{{.*}} = %c3, %{{.*}} = %c2, %{{.*}} = %c1) threads({{.*}}) in (%{{.*}} = %c2, %{{.*}} = %c4, %{{.*}} = %c1)
// LOWERED:        arith.cmpi ult, %{{.*}}, %c5 : index
// LOWERED:        arith.cmpi ult, %{{.*}}, %c6 : index
// LOWERED:        scf.if %{{.*}} {
// LOWERED-NEXT:     scf.for %{{.*}} = %c0 to %c3 step %c1 {

// NUMPY: a = (np.arange(5)[:, None] * np.arange(1, 4)).astype(np.float32)  # a[i][k] = i (k + 1)
// NUMPY: b = (np.arange(3)[:, None] - np.arange(6) + 2).astype(np.float32)  # b[k][j] = k - j + 2
// NUMPY: show(a @ b)

// CHECK:      rank = 2 offset = 0 sizes = [5, 6] strides = [6, 1] data =
// CHECK-NEXT: {{\[\[}}0,   0,   0,   0,   0,   0],
// CHECK-NEXT:  [20,   14,   8,   2,   -4,   -10],
// CHECK-NEXT:  [40,   28,   16,   4,   -8,   -20],
// CHECK-NEXT:  [60,   42,   24,   6,   -12,   -30],
// CHECK-NEXT:  [80,   56,   32,   8,   -16,   -40]]

func.func private @printMemrefF32(memref<*xf32>)
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c6 = arith.constant 6 : index
  %a = memref.alloc() : memref<5x3xf32>
  %b = memref.alloc() : memref<3x6xf32>
  %c = memref.alloc() : memref<5x6xf32>
  scf.for %i = %c0 to %c5 step %c1 {
    scf.for %k = %c0 to %c3 step %c1 {
      %k1 = arith.addi %k, %c1 : index
      %p = arith.muli %i, %k1 : index
      %pi = arith.index_cast %p : index to i32
      %f = arith.sitofp %pi : i32 to f32
      memref.store %f, %a[%i, %k] : memref<5x3xf32>
    }
  }
  scf.for %k = %c0 to %c3 step %c1 {
    scf.for %j = %c0 to %c6 step %c1 {
      %d = arith.subi %k, %j : index
      %e = arith.addi %d, %c2 : index
      %ei = arith.index_cast %e : index to i32
      %f = arith.sitofp %ei : i32 to f32
      memref.store %f, %b[%k, %j] : memref<3x6xf32>
    }
  }
  %ha = memref.cast %a : memref<5x3xf32> to memref<*xf32>
  %hb = memref.cast %b : memref<3x6xf32> to memref<*xf32>
  %hc = memref.cast %c : memref<5x6xf32> to memref<*xf32>
  gpu.host_register %ha : memref<*xf32>
  gpu.host_register %hb : memref<*xf32>
  gpu.host_register %hc : memref<*xf32>
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<5x6xf32>)
  linalg.matmul ins(%a, %b : memref<5x3xf32>, memref<3x6xf32>) outs(%c : memref<5x6xf32>)
  call @printMemrefF32(%hc) : (memref<*xf32>) -> ()
  return
}
