// linalg.conv_1d and linalg.conv_2d (MLIR's convolutions are correlations: out[i] = sum over k
// of in[i + k] w[k]) on linalg.fill'ed outputs, lowered to parallel loops and mapped to the
// GPU: one block per output element, the filter's loops scf.for inside the kernel, reading the
// input at i + k through the index arithmetic MLIR's affine maps lower to.
// Expected output: numpy, from the NUMPY lines (Inputs/numpy_expect.py prints it, and the
// CHECK lines are what it printed).
// RUN: mlir-opt-22 %s --convert-linalg-to-parallel-loops --gpu-map-parallel-loops \
// RUN:   --convert-parallel-loops-to-gpu --lower-affine --canonicalize > %t.mlir
// RUN: filecheck %s --check-prefix=LOWERED < %t.mlir
// RUN: python %S/Inputs/numpy_expect.py %s | filecheck %s
// RUN: gpu-run %t.mlir --provider interp | filecheck %s
// RUN: gpu-run %t.mlir --provider cpu | filecheck %s

// LOWERED:      gpu.launch blocks
// LOWERED:      scf.for %[[K:.*]] = %c0 to %c3 step %c1 {
// LOWERED-NEXT:   arith.addi %{{.*}}, %[[K]] : index
// LOWERED:      scf.for %{{.*}} = %c0 to %c3 step %c1 {
// LOWERED-NEXT:   scf.for %{{.*}} = %c0 to %c2 step %c1 {

// NUMPY: x = (np.arange(10) % 4 - 1).astype(np.float32)  # x[i] = i mod 4 - 1
// NUMPY: w = np.array([1, -2, 3], dtype=np.float32)
// NUMPY: show(np.array([x[i : i + 3] @ w for i in range(8)], dtype=np.float32))
// NUMPY: i, j = np.indices((6, 7))
// NUMPY: img = (2 * i - j).astype(np.float32)
// NUMPY: k, l = np.indices((3, 2))
// NUMPY: ker = (2 * l + k - 1).astype(np.float32)
// NUMPY: out = [[(img[r : r + 3, c : c + 2] * ker).sum() for c in range(6)] for r in range(4)]
// NUMPY: show(np.array(out, dtype=np.float32))

// CHECK:      rank = 1 offset = 0 sizes = [8] strides = [1] data =
// CHECK-NEXT: [2,  4,  -6,  4,  2,  4,  -6,  4]
// CHECK:      rank = 2 offset = 0 sizes = [4, 6] strides = [6, 1] data =
// CHECK-NEXT: {{\[\[}}14,   8,   2,   -4,   -10,   -16],
// CHECK-NEXT:  [26,   20,   14,   8,   2,   -4],
// CHECK-NEXT:  [38,   32,   26,   20,   14,   8],
// CHECK-NEXT:  [50,   44,   38,   32,   26,   20]]

#ij = affine_map<(i, j) -> (i, j)>
func.func private @printMemrefF32(memref<*xf32>)
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c10 = arith.constant 10 : index
  %zero = arith.constant 0.0 : f32
  %x = memref.alloc() : memref<10xf32>
  %w = memref.alloc() : memref<3xf32>
  %y = memref.alloc() : memref<8xf32>
  %img = memref.alloc() : memref<6x7xf32>
  %ker = memref.alloc() : memref<3x2xf32>
  %out = memref.alloc() : memref<4x6xf32>
  %hx = memref.cast %x : memref<10xf32> to memref<*xf32>
  %hw = memref.cast %w : memref<3xf32> to memref<*xf32>
  %hy = memref.cast %y : memref<8xf32> to memref<*xf32>
  %hi = memref.cast %img : memref<6x7xf32> to memref<*xf32>
  %hk = memref.cast %ker : memref<3x2xf32> to memref<*xf32>
  %ho = memref.cast %out : memref<4x6xf32> to memref<*xf32>
  // The 1-D input and filter, written on the host.
  scf.for %i = %c0 to %c10 step %c1 {
    %r = arith.remui %i, %c4 : index
    %v = arith.subi %r, %c1 : index
    %vi = arith.index_cast %v : index to i32
    %f = arith.sitofp %vi : i32 to f32
    memref.store %f, %x[%i] : memref<10xf32>
  }
  %w0 = arith.constant 1.0 : f32
  %w1 = arith.constant -2.0 : f32
  %w2 = arith.constant 3.0 : f32
  memref.store %w0, %w[%c0] : memref<3xf32>
  memref.store %w1, %w[%c1] : memref<3xf32>
  memref.store %w2, %w[%c2] : memref<3xf32>
  gpu.host_register %hx : memref<*xf32>
  gpu.host_register %hw : memref<*xf32>
  gpu.host_register %hy : memref<*xf32>
  gpu.host_register %hi : memref<*xf32>
  gpu.host_register %hk : memref<*xf32>
  gpu.host_register %ho : memref<*xf32>
  // The 2-D image and filter, written by linalg.generic from their indices.
  linalg.generic {indexing_maps = [#ij], iterator_types = ["parallel", "parallel"]}
      outs(%img : memref<6x7xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %t = arith.muli %i, %c2 : index
    %u = arith.subi %t, %j : index
    %ui = arith.index_cast %u : index to i32
    %f = arith.sitofp %ui : i32 to f32
    linalg.yield %f : f32
  }
  linalg.generic {indexing_maps = [#ij], iterator_types = ["parallel", "parallel"]}
      outs(%ker : memref<3x2xf32>) {
  ^bb0(%o: f32):
    %k = linalg.index 0 : index
    %l = linalg.index 1 : index
    %t = arith.muli %l, %c2 : index
    %u = arith.addi %t, %k : index
    %v = arith.subi %u, %c1 : index
    %vi = arith.index_cast %v : index to i32
    %f = arith.sitofp %vi : i32 to f32
    linalg.yield %f : f32
  }
  linalg.fill ins(%zero : f32) outs(%y : memref<8xf32>)
  linalg.conv_1d ins(%x, %w : memref<10xf32>, memref<3xf32>) outs(%y : memref<8xf32>)
  linalg.fill ins(%zero : f32) outs(%out : memref<4x6xf32>)
  linalg.conv_2d ins(%img, %ker : memref<6x7xf32>, memref<3x2xf32>) outs(%out : memref<4x6xf32>)
  call @printMemrefF32(%hy) : (memref<*xf32>) -> ()
  call @printMemrefF32(%ho) : (memref<*xf32>) -> ()
  return
}
