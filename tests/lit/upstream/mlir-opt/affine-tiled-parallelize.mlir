// Affine loop nests tiled (--affine-loop-tile, tiles of 4 over 10x7, so the last tiles are
// partial) and then made parallel by --affine-parallelize, in two pipelines:
// - with max-nested=2, only the two tile loops become parallel: mapped to the GPU, the tiles
//   are the blocks (the conversion indexes them through affine.apply, lowered after it) and the
//   loops within a tile, whose bounds are min(tile + 4, extent), are scf.for in the kernel;
// - with every loop parallel, the loops within a tile are scf.parallel whose bounds depend on
//   the tile's: --convert-parallel-loops-to-gpu cannot launch them and leaves every loop nest
//   an scf.parallel on the host (its #gpu.loop_dim_map mapping on it), which gpuir runs there.
// Expected output: numpy, from the NUMPY lines (Inputs/numpy_expect.py prints it, and the
// CHECK lines are what it printed).
// RUN: mlir-opt-22 %s "--pass-pipeline=builtin.module(func.func(affine-loop-tile{tile-size=4},affine-parallelize{max-nested=2}),lower-affine,canonicalize,func.func(gpu-map-parallel-loops),convert-parallel-loops-to-gpu,lower-affine,canonicalize)" > %t.mlir
// RUN: filecheck %s --check-prefix=LOWERED < %t.mlir
// RUN: mlir-opt-22 %s "--pass-pipeline=builtin.module(func.func(affine-loop-tile{tile-size=4},affine-parallelize),lower-affine,canonicalize,func.func(gpu-map-parallel-loops),convert-parallel-loops-to-gpu,canonicalize)" > %t.host.mlir
// RUN: filecheck %s --check-prefix=HOST < %t.host.mlir
// RUN: python %S/Inputs/numpy_expect.py %s | filecheck %s
// RUN: gpu-run %t.mlir --provider interp | filecheck %s
// RUN: gpu-run %t.mlir --provider cpu | filecheck %s
// RUN: gpu-run %t.host.mlir --provider interp | filecheck %s
// RUN: gpu-run %t.host.mlir --provider cpu | filecheck %s

// 3 x 2 tiles on the blocks, one thread each, the tile's elements in scf.for loops.
// LOWERED:      gpu.launch blocks({{.*}}) in (%{{.*}} = %c3, %{{.*}} = %c2, %{{.*}} = %c1) threads({{.*}}) in (%{{.*}} = %c1, %{{.*}} = %c1, %{{.*}} = %c1)
// LOWERED:        scf.for
// LOWERED:          arith.minsi
// LOWERED:          scf.for

// HOST-NOT:     gpu.launch
// HOST:         scf.parallel (%[[I:.*]], %[[J:.*]]) = (%c0, %c0) to (%c10, %c7) step (%c4, %c4) {
// HOST:           arith.minsi
// HOST:           scf.parallel
// HOST:         } {mapping = [#gpu.loop_dim_map<processor = block_x

// NUMPY: i, j = np.indices((10, 7))
// NUMPY: a = (7 * i + j).astype(np.float32)
// NUMPY: show(a - a[9 - i, 6 - j] * np.float32(0.5))

// CHECK:      rank = 2 offset = 0 sizes = [10, 7] strides = [7, 1] data =
// CHECK-NEXT: {{\[\[}}-34.5,   -33,   -31.5,   -30,   -28.5,   -27,   -25.5],
// CHECK-NEXT:  [-24,   -22.5,   -21,   -19.5,   -18,   -16.5,   -15],
// CHECK-NEXT:  [-13.5,   -12,   -10.5,   -9,   -7.5,   -6,   -4.5],
// CHECK-NEXT:  [-3,   -1.5,   0,   1.5,   3,   4.5,   6],
// CHECK-NEXT:  [7.5,   9,   10.5,   12,   13.5,   15,   16.5],
// CHECK-NEXT:  [18,   19.5,   21,   22.5,   24,   25.5,   27],
// CHECK-NEXT:  [28.5,   30,   31.5,   33,   34.5,   36,   37.5],
// CHECK-NEXT:  [39,   40.5,   42,   43.5,   45,   46.5,   48],
// CHECK-NEXT:  [49.5,   51,   52.5,   54,   55.5,   57,   58.5],
// CHECK-NEXT:  [60,   61.5,   63,   64.5,   66,   67.5,   69]]

func.func private @printMemrefF32(memref<*xf32>)
func.func @main() {
  %a = memref.alloc() : memref<10x7xf32>
  %b = memref.alloc() : memref<10x7xf32>
  %half = arith.constant 0.5 : f32
  %ha = memref.cast %a : memref<10x7xf32> to memref<*xf32>
  %hb = memref.cast %b : memref<10x7xf32> to memref<*xf32>
  gpu.host_register %ha : memref<*xf32>
  gpu.host_register %hb : memref<*xf32>
  affine.for %i = 0 to 10 {
    affine.for %j = 0 to 7 {
      %k = affine.apply affine_map<(d0, d1) -> (d0 * 7 + d1)>(%i, %j)
      %ki = arith.index_cast %k : index to i32
      %f = arith.sitofp %ki : i32 to f32
      affine.store %f, %a[%i, %j] : memref<10x7xf32>
    }
  }
  affine.for %i = 0 to 10 {
    affine.for %j = 0 to 7 {
      %x = affine.load %a[%i, %j] : memref<10x7xf32>
      %y = affine.load %a[9 - %i, 6 - %j] : memref<10x7xf32>
      %h = arith.mulf %y, %half : f32
      %z = arith.subf %x, %h : f32
      affine.store %z, %b[%i, %j] : memref<10x7xf32>
    }
  }
  call @printMemrefF32(%hb) : (memref<*xf32>) -> ()
  return
}
