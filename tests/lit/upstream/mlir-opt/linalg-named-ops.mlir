// More of linalg's named ops, lowered to parallel loops and mapped to the GPU as MLIR does:
// linalg.batch_matmul (three parallel dimensions: the blocks' x, y and z), linalg.matvec,
// linalg.transpose, linalg.pooling_nhwc_max (a 2x2 window, stride 2, whose window
// dimensions are sequential loops in the kernel) and a linalg.generic of two outputs (a rank-4
// memref's channels, as rank-2 memrefs to print). The inputs are written by linalg.generic
// from their indices, on the GPU too.
// Expected output: numpy, from the NUMPY lines (Inputs/numpy_expect.py prints it, and the
// CHECK lines are what it printed).
// RUN: mlir-opt-22 %s --convert-linalg-to-parallel-loops --gpu-map-parallel-loops \
// RUN:   --convert-parallel-loops-to-gpu --lower-affine --canonicalize > %t.mlir
// RUN: filecheck %s --check-prefix=LOWERED < %t.mlir
// RUN: python %S/Inputs/numpy_expect.py %s | filecheck %s
// RUN: gpu-run %t.mlir --provider interp | filecheck %s
// RUN: gpu-run %t.mlir --provider cpu | filecheck %s

// The batch matmul: batch, row and column on the blocks' x, y, z.
// LOWERED:      gpu.launch blocks({{.*}}) in (%{{.*}} = %c2, %{{.*}} = %c3, %{{.*}} = %c4) threads
// The pooled image's fill, then the pooling: n, h, w on the blocks; the channel, a fourth
// parallel dimension, and the window's two dimensions loops in the kernel.
// LOWERED:      gpu.launch blocks({{.*}}) in (%{{.*}} = %c1, %{{.*}} = %c2, %{{.*}} = %c3) threads
// LOWERED:      gpu.launch blocks({{.*}}) in (%{{.*}} = %c1, %{{.*}} = %c2, %{{.*}} = %c3) threads
// LOWERED-NEXT:   scf.for %{{.*}} = %c0 to %c2 step %c1 {
// LOWERED-NEXT:     scf.for %{{.*}} = %c0 to %c2 step %c1 {
// LOWERED-NEXT:       scf.for %{{.*}} = %c0 to %c2 step %c1 {
// LOWERED:              arith.maximumf

// NUMPY: b, i, j = np.indices((2, 3, 5))
// NUMPY: x = (b + i - j).astype(np.float32)  # 2x3x5
// NUMPY: b, j, k = np.indices((2, 5, 4))
// NUMPY: y = (j * k - b).astype(np.float32)  # 2x5x4
// NUMPY: show(x @ y)  # batch_matmul: 2x3x4
// NUMPY: m = x[0] + x[1]  # 3x5
// NUMPY: v = (np.arange(5) - 2).astype(np.float32)
// NUMPY: show(m @ v)  # matvec
// NUMPY: show(m.T)  # transpose
// NUMPY: n, h, w, c = np.indices((1, 4, 6, 2))
// NUMPY: image = ((3 * h + 5 * w + 7 * c) % 11).astype(np.float32)
// NUMPY: show(image.reshape(1, 2, 2, 3, 2, 2).max(axis=(2, 4))[0, :, :, 0])  # pooling, channel 0
// NUMPY: show(image.reshape(1, 2, 2, 3, 2, 2).max(axis=(2, 4))[0, :, :, 1])  # channel 1

// CHECK:      rank = 3 offset = 0 sizes = [2, 3, 4] strides = [12, 4, 1] data =
// CHECK-NEXT: {{\[\[}}[0,    -30,    -60,    -90],
// CHECK-NEXT:   [0,    -20,    -40,    -60],
// CHECK-NEXT:   [0,    -10,    -20,    -30]],
// CHECK-NEXT:  {{\[\[}}5,    -15,    -35,    -55],
// CHECK-NEXT:   [0,    -10,    -20,    -30],
// CHECK-NEXT:   [-5,    -5,    -5,    -5]]]
// CHECK:      rank = 1 offset = 0 sizes = [3] strides = [1] data =
// CHECK-NEXT: [-20,  -20,  -20]
// CHECK:      rank = 2 offset = 0 sizes = [5, 3] strides = [3, 1] data =
// CHECK-NEXT: {{\[\[}}1,   3,   5],
// CHECK-NEXT:  [-1,   1,   3],
// CHECK-NEXT:  [-3,   -1,   1],
// CHECK-NEXT:  [-5,   -3,   -1],
// CHECK-NEXT:  [-7,   -5,   -3]]
// CHECK:      rank = 2 offset = 0 sizes = [2, 3] strides = [3, 1] data =
// CHECK-NEXT: {{\[\[}}8,   10,   9],
// CHECK-NEXT:  [9,   10,   9]]
// CHECK:      rank = 2 offset = 0 sizes = [2, 3] strides = [3, 1] data =
// CHECK-NEXT: {{\[\[}}10,   9,   10],
// CHECK-NEXT:  [10,   9,   8]]

func.func private @printMemrefF32(memref<*xf32>)
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %c11 = arith.constant 11 : index
  %zero = arith.constant 0.0 : f32
  %low = arith.constant -1.0e30 : f32
  %x = memref.alloc() : memref<2x3x5xf32>
  %y = memref.alloc() : memref<2x5x4xf32>
  %z = memref.alloc() : memref<2x3x4xf32>
  %m = memref.alloc() : memref<3x5xf32>
  %v = memref.alloc() : memref<5xf32>
  %mv = memref.alloc() : memref<3xf32>
  %t = memref.alloc() : memref<5x3xf32>
  %image = memref.alloc() : memref<1x4x6x2xf32>
  %window = memref.alloc() : memref<2x2xf32>
  %pooled = memref.alloc() : memref<1x2x3x2xf32>
  %c0s = memref.alloc() : memref<2x3xf32>
  %c1s = memref.alloc() : memref<2x3xf32>
  %hx = memref.cast %x : memref<2x3x5xf32> to memref<*xf32>
  %hy = memref.cast %y : memref<2x5x4xf32> to memref<*xf32>
  %hz = memref.cast %z : memref<2x3x4xf32> to memref<*xf32>
  %hm = memref.cast %m : memref<3x5xf32> to memref<*xf32>
  %hv = memref.cast %v : memref<5xf32> to memref<*xf32>
  %hmv = memref.cast %mv : memref<3xf32> to memref<*xf32>
  %ht = memref.cast %t : memref<5x3xf32> to memref<*xf32>
  %himage = memref.cast %image : memref<1x4x6x2xf32> to memref<*xf32>
  %hwindow = memref.cast %window : memref<2x2xf32> to memref<*xf32>
  %hpooled = memref.cast %pooled : memref<1x2x3x2xf32> to memref<*xf32>
  %hc0 = memref.cast %c0s : memref<2x3xf32> to memref<*xf32>
  %hc1 = memref.cast %c1s : memref<2x3xf32> to memref<*xf32>
  gpu.host_register %hx : memref<*xf32>
  gpu.host_register %hy : memref<*xf32>
  gpu.host_register %hz : memref<*xf32>
  gpu.host_register %hm : memref<*xf32>
  gpu.host_register %hv : memref<*xf32>
  gpu.host_register %hmv : memref<*xf32>
  gpu.host_register %ht : memref<*xf32>
  gpu.host_register %himage : memref<*xf32>
  gpu.host_register %hwindow : memref<*xf32>
  gpu.host_register %hpooled : memref<*xf32>
  gpu.host_register %hc0 : memref<*xf32>
  gpu.host_register %hc1 : memref<*xf32>
  // x[b][i][j] = b + i - j, y[b][j][k] = j k - b
  linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>],
                  iterator_types = ["parallel", "parallel", "parallel"]}
      outs(%x : memref<2x3x5xf32>) {
  ^bb0(%o: f32):
    %b = linalg.index 0 : index
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %s = arith.addi %b, %i : index
    %d = arith.subi %s, %j : index
    %di = arith.index_cast %d : index to i32
    %f = arith.sitofp %di : i32 to f32
    linalg.yield %f : f32
  }
  linalg.generic {indexing_maps = [affine_map<(b, j, k) -> (b, j, k)>],
                  iterator_types = ["parallel", "parallel", "parallel"]}
      outs(%y : memref<2x5x4xf32>) {
  ^bb0(%o: f32):
    %b = linalg.index 0 : index
    %j = linalg.index 1 : index
    %k = linalg.index 2 : index
    %p = arith.muli %j, %k : index
    %d = arith.subi %p, %b : index
    %di = arith.index_cast %d : index to i32
    %f = arith.sitofp %di : i32 to f32
    linalg.yield %f : f32
  }
  linalg.fill ins(%zero : f32) outs(%z : memref<2x3x4xf32>)
  linalg.batch_matmul ins(%x, %y : memref<2x3x5xf32>, memref<2x5x4xf32>)
                      outs(%z : memref<2x3x4xf32>)
  // m = x[0] + x[1], v[j] = j - 2
  linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>,
                                   affine_map<(b, i, j) -> (i, j)>],
                  iterator_types = ["reduction", "parallel", "parallel"]}
      ins(%x : memref<2x3x5xf32>) outs(%m : memref<3x5xf32>) {
  ^bb0(%e: f32, %acc: f32):
    %s = arith.addf %acc, %e : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(j) -> (j)>], iterator_types = ["parallel"]}
      outs(%v : memref<5xf32>) {
  ^bb0(%o: f32):
    %j = linalg.index 0 : index
    %d = arith.subi %j, %c2 : index
    %di = arith.index_cast %d : index to i32
    %f = arith.sitofp %di : i32 to f32
    linalg.yield %f : f32
  }
  linalg.fill ins(%zero : f32) outs(%mv : memref<3xf32>)
  linalg.matvec ins(%m, %v : memref<3x5xf32>, memref<5xf32>) outs(%mv : memref<3xf32>)
  linalg.transpose ins(%m : memref<3x5xf32>) outs(%t : memref<5x3xf32>) permutation = [1, 0]
  // image[0][h][w][c] = (3 h + 5 w + 7 c) mod 11, pooled by 2x2 windows of stride 2
  linalg.generic {indexing_maps = [affine_map<(n, h, w, c) -> (n, h, w, c)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      outs(%image : memref<1x4x6x2xf32>) {
  ^bb0(%o: f32):
    %h = linalg.index 1 : index
    %w = linalg.index 2 : index
    %c = linalg.index 3 : index
    %h3 = arith.muli %h, %c3 : index
    %w5 = arith.muli %w, %c5 : index
    %c7c = arith.muli %c, %c7 : index
    %s0 = arith.addi %h3, %w5 : index
    %s1 = arith.addi %s0, %c7c : index
    %r = arith.remui %s1, %c11 : index
    %ri = arith.index_cast %r : index to i32
    %f = arith.sitofp %ri : i32 to f32
    linalg.yield %f : f32
  }
  linalg.fill ins(%low : f32) outs(%pooled : memref<1x2x3x2xf32>)
  linalg.pooling_nhwc_max {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>}
      ins(%image, %window : memref<1x4x6x2xf32>, memref<2x2xf32>)
      outs(%pooled : memref<1x2x3x2xf32>)
  // Each channel of the pooled image, for printMemrefF32 (which prints a memref of rank 2).
  linalg.generic {indexing_maps = [affine_map<(h, w) -> (0, h, w, 0)>,
                                   affine_map<(h, w) -> (0, h, w, 1)>,
                                   affine_map<(h, w) -> (h, w)>, affine_map<(h, w) -> (h, w)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%pooled, %pooled : memref<1x2x3x2xf32>, memref<1x2x3x2xf32>)
      outs(%c0s, %c1s : memref<2x3xf32>, memref<2x3xf32>) {
  ^bb0(%p0: f32, %p1: f32, %o0: f32, %o1: f32):
    linalg.yield %p0, %p1 : f32, f32
  }
  call @printMemrefF32(%hz) : (memref<*xf32>) -> ()
  call @printMemrefF32(%hmv) : (memref<*xf32>) -> ()
  call @printMemrefF32(%ht) : (memref<*xf32>) -> ()
  call @printMemrefF32(%hc0) : (memref<*xf32>) -> ()
  call @printMemrefF32(%hc1) : (memref<*xf32>) -> ()
  return
}
