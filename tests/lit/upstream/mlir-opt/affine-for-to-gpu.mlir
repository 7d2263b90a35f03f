// Affine loop nests mapped to the GPU directly by --convert-affine-for-to-gpu (one block
// dimension, one thread dimension): the outer loop's iterations are the blocks, the inner
// loop's the threads, and a loop that does not start at 0 or steps by 2 becomes a launch of
// (upper - lower) ceildiv step blocks or threads whose ids are mapped back to lower + id * step.
// A 3-point stencil over the interior of each row, then the odd columns of each row scaled.
// Expected output: numpy, from the NUMPY lines (Inputs/numpy_expect.py prints it, and the
// CHECK lines are what it printed).
// RUN: mlir-opt-22 %s "--pass-pipeline=builtin.module(func.func(convert-affine-for-to-gpu{gpu-block-dims=1 gpu-thread-dims=1}),lower-affine,canonicalize)" > %t.mlir
// RUN: filecheck %s --check-prefix=LOWERED < %t.mlir
// RUN: python %S/Inputs/numpy_expect.py %s | filecheck %s
// RUN: gpu-run %t.mlir --provider interp | filecheck %s
// RUN: gpu-run %t.mlir --provider cpu | filecheck %s

// The input, 7 rows of 10 threads; the stencil, 5 rows of 8; the odd columns, 7 rows of 5.
// LOWERED:      gpu.launch blocks({{.*}}) in (%{{.*}} = %c7, %{{.*}} = %c1, %{{.*}} = %c1) threads({{.*}}) in (%{{.*}} = %c10, %{{.*}} = %c1, %{{.*}} = %c1)
// LOWERED:      gpu.launch blocks({{.*}}) in (%{{.*}} = %c5, %{{.*}} = %c1, %{{.*}} = %c1) threads({{.*}}) in (%{{.*}} = %c8, %{{.*}} = %c1, %{{.*}} = %c1)
// LOWERED:      gpu.launch blocks({{.*}}) in (%{{.*}} = %c7, %{{.*}} = %c1, %{{.*}} = %c1) threads({{.*}}) in (%{{.*}} = %c5, %{{.*}} = %c1, %{{.*}} = %c1)

// NUMPY: i, j = np.indices((7, 10))
// NUMPY: a = ((i * j) % 5 + j - 3 * i).astype(np.float32)
// NUMPY: b = np.zeros((7, 10), dtype=np.float32)
// NUMPY: b[1:6, 1:9] = a[1:6, :-2] + 2 * a[1:6, 1:-1] + a[1:6, 2:]
// NUMPY: b[:, 1::2] *= -0.5
// NUMPY: show(b)

// CHECK:      rank = 2 offset = 0 sizes = [7, 10] strides = [10, 1] data =
// CHECK-NEXT: {{\[\[}}0,   -0,   0,   -0,   0,   -0,   0,   -0,   0,   -0],
// CHECK-NEXT:  [0,   2,   4,   -6,   15,   -6.5,   16,   -12,   32,   -0],
// CHECK-NEXT:  [0,   6,   -5,   1.5,   -1,   -0.5,   8,   -7.5,   17,   -0],
// CHECK-NEXT:  [0,   12.5,   -19,   6.5,   -12,   5.5,   -5,   -0.5,   7,   -0],
// CHECK-NEXT:  [0,   16.5,   -28,   14,   -28,   11.5,   -13,   4,   -8,   -0],
// CHECK-NEXT:  [0,   28,   -52,   24,   -44,   20,   -36,   16,   -28,   -0],
// CHECK-NEXT:  [0,   -0,   0,   -0,   0,   -0,   0,   -0,   0,   -0]]

func.func private @printMemrefF32(memref<*xf32>)
func.func @main() {
  %a = memref.alloc() : memref<7x10xf32>
  %b = memref.alloc() : memref<7x10xf32>
  %zero = arith.constant 0.0 : f32
  %two = arith.constant 2.0 : f32
  %half = arith.constant -0.5 : f32
  %ha = memref.cast %a : memref<7x10xf32> to memref<*xf32>
  %hb = memref.cast %b : memref<7x10xf32> to memref<*xf32>
  gpu.host_register %ha : memref<*xf32>
  gpu.host_register %hb : memref<*xf32>
  // a[i][j] = (i j) mod 5 + j - 3 i, b = 0
  affine.for %i = 0 to 7 {
    affine.for %j = 0 to 10 {
      %p = arith.muli %i, %j : index
      %k = affine.apply affine_map<(d0, d1)[s0] -> (s0 mod 5 + d1 - d0 * 3)>(%i, %j)[%p]
      %ki = arith.index_cast %k : index to i32
      %f = arith.sitofp %ki : i32 to f32
      affine.store %f, %a[%i, %j] : memref<7x10xf32>
      affine.store %zero, %b[%i, %j] : memref<7x10xf32>
    }
  }
  affine.for %i = 1 to 6 {
    affine.for %j = 1 to 9 {
      %l = affine.load %a[%i, %j - 1] : memref<7x10xf32>
      %m = affine.load %a[%i, %j] : memref<7x10xf32>
      %r = affine.load %a[%i, %j + 1] : memref<7x10xf32>
      %m2 = arith.mulf %m, %two : f32
      %s0 = arith.addf %l, %m2 : f32
      %s1 = arith.addf %s0, %r : f32
      affine.store %s1, %b[%i, %j] : memref<7x10xf32>
    }
  }
  affine.for %i = 0 to 7 {
    affine.for %j = 1 to 10 step 2 {
      %v = affine.load %b[%i, %j] : memref<7x10xf32>
      %w = arith.mulf %v, %half : f32
      affine.store %w, %b[%i, %j] : memref<7x10xf32>
    }
  }
  call @printMemrefF32(%hb) : (memref<*xf32>) -> ()
  return
}
