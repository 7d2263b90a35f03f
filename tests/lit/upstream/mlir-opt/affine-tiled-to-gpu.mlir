// An affine loop nest tiled by --affine-loop-tile (tiles of 4x3 over a 9x7 iteration space, so
// the last tiles are partial: the loops within a tile end at min(tile + size, extent)), then
// mapped to the GPU by --convert-affine-for-to-gpu with the two tile loops on the blocks' x and y
// and no thread dimension: each block runs its tile's loops (scf.for, whose bound is the
// lowered affine.min) on its one thread.
// Expected output: numpy, from the NUMPY lines (Inputs/numpy_expect.py prints it, and the
// CHECK lines are what it printed).
// RUN: mlir-opt-22 %s "--pass-pipeline=builtin.module(func.func(affine-loop-tile{tile-sizes=4,3},convert-affine-for-to-gpu{gpu-block-dims=2 gpu-thread-dims=0}),lower-affine,canonicalize)" > %t.mlir
// RUN: filecheck %s --check-prefix=LOWERED < %t.mlir
// RUN: python %S/Inputs/numpy_expect.py %s | filecheck %s
// RUN: gpu-run %t.mlir --provider interp | filecheck %s
// RUN: gpu-run %t.mlir --provider cpu | filecheck %s

// 3 x 3 tiles (the last row and column of them partial), one thread each.
// LOWERED:      gpu.launch blocks({{.*}}) in (%{{.*}} = %c3, %{{.*}} = %c3, %{{.*}} = %c1) threads({{.*}}) in (%{{.*}} = %c1, %{{.*}} = %c1, %{{.*}} = %c1)
// LOWERED:        arith.minsi
// LOWERED:        scf.for
// LOWERED:          scf.for

// NUMPY: i, j = np.indices((9, 7))
// NUMPY: a = (i - 2 * j).astype(np.float32)
// NUMPY: show((np.where(a > 0, a * a, -a) + i).astype(np.float32))

// CHECK:      rank = 2 offset = 0 sizes = [9, 7] strides = [7, 1] data =
// CHECK-NEXT: {{\[\[}}0,   2,   4,   6,   8,   10,   12],
// CHECK-NEXT:  [2,   2,   4,   6,   8,   10,   12],
// CHECK-NEXT:  [6,   2,   4,   6,   8,   10,   12],
// CHECK-NEXT:  [12,   4,   4,   6,   8,   10,   12],
// CHECK-NEXT:  [20,   8,   4,   6,   8,   10,   12],
// CHECK-NEXT:  [30,   14,   6,   6,   8,   10,   12],
// CHECK-NEXT:  [42,   22,   10,   6,   8,   10,   12],
// CHECK-NEXT:  [56,   32,   16,   8,   8,   10,   12],
// CHECK-NEXT:  [72,   44,   24,   12,   8,   10,   12]]

func.func private @printMemrefF32(memref<*xf32>)
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c7 = arith.constant 7 : index
  %c9 = arith.constant 9 : index
  %zero = arith.constant 0.0 : f32
  %a = memref.alloc() : memref<9x7xf32>
  %b = memref.alloc() : memref<9x7xf32>
  // a[i][j] = i - 2 j, on the host
  scf.for %i = %c0 to %c9 step %c1 {
    scf.for %j = %c0 to %c7 step %c1 {
      %j2 = arith.muli %j, %c2 : index
      %d = arith.subi %i, %j2 : index
      %di = arith.index_cast %d : index to i32
      %f = arith.sitofp %di : i32 to f32
      memref.store %f, %a[%i, %j] : memref<9x7xf32>
    }
  }
  %ha = memref.cast %a : memref<9x7xf32> to memref<*xf32>
  %hb = memref.cast %b : memref<9x7xf32> to memref<*xf32>
  gpu.host_register %ha : memref<*xf32>
  gpu.host_register %hb : memref<*xf32>
  // b[i][j] = (a > 0 ? a a : -a) + i
  affine.for %i = 0 to 9 {
    affine.for %j = 0 to 7 {
      %x = affine.load %a[%i, %j] : memref<9x7xf32>
      %pos = arith.cmpf ogt, %x, %zero : f32
      %sq = arith.mulf %x, %x : f32
      %neg = arith.negf %x : f32
      %y = arith.select %pos, %sq, %neg : f32
      %ii = arith.index_cast %i : index to i32
      %fi = arith.sitofp %ii : i32 to f32
      %z = arith.addf %y, %fi : f32
      affine.store %z, %b[%i, %j] : memref<9x7xf32>
    }
  }
  call @printMemrefF32(%hb) : (memref<*xf32>) -> ()
  return
}
