// A loop that carries a sum (affine.for with iter_args) made a parallel reduction by
// --affine-parallelize=parallel-reductions: an affine.parallel with a reduction, lowered to
// scf.parallel whose scf.reduce region adds. Two pipelines:
// - mapped to the GPU, the reduced loop is the block's threads and --convert-parallel-loops-to-gpu
//   makes its reduction a gpu.all_reduce of the threads' values, the region's addf its body;
// - not mapped, the scf.parallel and its scf.reduce run on the host.
// Row sums and row maxima (a maximumf reduction) of a 8x6 matrix, each a loop of its own; row
// sums of squares and row minima, one loop of two reductions.
// Expected output: numpy, from the NUMPY lines (Inputs/numpy_expect.py prints it, and the
// CHECK lines are what it printed).
// RUN: mlir-opt-22 %s --affine-parallelize=parallel-reductions --lower-affine \
// RUN:   --gpu-map-parallel-loops --convert-parallel-loops-to-gpu --canonicalize > %t.mlir
// RUN: filecheck %s --check-prefix=LOWERED < %t.mlir
// RUN: mlir-opt-22 %s --affine-parallelize=parallel-reductions --lower-affine \
// RUN:   --canonicalize > %t.host.mlir
// RUN: filecheck %s --check-prefix=HOST < %t.host.mlir
// RUN: python %S/Inputs/numpy_expect.py %s | filecheck %s
// RUN: gpu-run %t.mlir --provider interp | filecheck %s
// RUN: gpu-run %t.mlir --provider cpu | filecheck %s
// RUN: gpu-run %t.host.mlir --provider interp | filecheck %s
// RUN: gpu-run %t.host.mlir --provider cpu | filecheck %s

// LOWERED:      gpu.launch blocks({{.*}}) in (%{{.*}} = %c8, %{{.*}} = %c1, %{{.*}} = %c1) threads({{.*}}) in (%{{.*}} = %c6, %{{.*}} = %c1, %{{.*}} = %c1)
// LOWERED:        gpu.all_reduce %{{.*}} uniform {
// LOWERED:          arith.addf
// LOWERED:        gpu.all_reduce %{{.*}} uniform {
// LOWERED:          arith.maximumf

// LOWERED:      scf.parallel ({{.*}}) = ({{.*}}) to ({{.*}}) step ({{.*}}) init (%{{.*}}, %{{.*}}) -> (f32, f32) {

// HOST-NOT:     gpu.launch
// HOST:         scf.parallel ({{.*}}) = ({{.*}}) to ({{.*}}) step ({{.*}}) init (%{{.*}}) -> f32 {
// HOST:           scf.reduce(%{{.*}} : f32) {
// HOST:             arith.addf

// NUMPY: i, j = np.indices((8, 6))
// NUMPY: a = ((5 * i + 3 * j) % 7 - j).astype(np.float32)
// NUMPY: show(a.sum(axis=1))
// NUMPY: show(a.max(axis=1))
// NUMPY: show((a * a).sum(axis=1))
// NUMPY: show(a.min(axis=1))

// CHECK:      rank = 1 offset = 0 sizes = [8] strides = [1] data =
// CHECK-NEXT: [2,  4,  6,  1,  3,  5,  0,  2]
// CHECK:      rank = 1 offset = 0 sizes = [8] strides = [1] data =
// CHECK-NEXT: [4,  5,  5,  3,  6,  4,  4,  4]
// CHECK:      rank = 1 offset = 0 sizes = [8] strides = [1] data =
// CHECK-NEXT: [38,  40,  48,  27,  75,  31,  42,  38]
// CHECK:      rank = 1 offset = 0 sizes = [8] strides = [1] data =
// CHECK-NEXT: [-4,  -3,  -3,  -3,  -5,  -2,  -4,  -4]

func.func private @printMemrefF32(memref<*xf32>)
func.func @main() {
  %a = memref.alloc() : memref<8x6xf32>
  %sum = memref.alloc() : memref<8xf32>
  %max = memref.alloc() : memref<8xf32>
  %squares = memref.alloc() : memref<8xf32>
  %min = memref.alloc() : memref<8xf32>
  %ha = memref.cast %a : memref<8x6xf32> to memref<*xf32>
  %hsum = memref.cast %sum : memref<8xf32> to memref<*xf32>
  %hmax = memref.cast %max : memref<8xf32> to memref<*xf32>
  %hsquares = memref.cast %squares : memref<8xf32> to memref<*xf32>
  %hmin = memref.cast %min : memref<8xf32> to memref<*xf32>
  gpu.host_register %ha : memref<*xf32>
  gpu.host_register %hsum : memref<*xf32>
  gpu.host_register %hmax : memref<*xf32>
  gpu.host_register %hsquares : memref<*xf32>
  gpu.host_register %hmin : memref<*xf32>
  %zero = arith.constant 0.0 : f32
  %low = arith.constant -1.0e30 : f32
  %high = arith.constant 1.0e30 : f32
  // a[i][j] = (5 i + 3 j) mod 7 - j
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 6 {
      %k = affine.apply affine_map<(d0, d1) -> ((d0 * 5 + d1 * 3) mod 7 - d1)>(%i, %j)
      %ki = arith.index_cast %k : index to i32
      %f = arith.sitofp %ki : i32 to f32
      affine.store %f, %a[%i, %j] : memref<8x6xf32>
    }
  }
  // One reduction per loop: gpu.all_reduce on the GPU.
  affine.for %i = 0 to 8 {
    %s = affine.for %j = 0 to 6 iter_args(%acc = %zero) -> f32 {
      %x = affine.load %a[%i, %j] : memref<8x6xf32>
      %n = arith.addf %acc, %x : f32
      affine.yield %n : f32
    }
    affine.store %s, %sum[%i] : memref<8xf32>
  }
  affine.for %i = 0 to 8 {
    %m = affine.for %j = 0 to 6 iter_args(%top = %low) -> f32 {
      %x = affine.load %a[%i, %j] : memref<8x6xf32>
      %t = arith.maximumf %top, %x : f32
      affine.yield %t : f32
    }
    affine.store %m, %max[%i] : memref<8xf32>
  }
  // Two reductions in one loop, which --convert-parallel-loops-to-gpu does not convert: an
  // scf.parallel on the host in both pipelines.
  affine.for %i = 0 to 8 {
    %q, %b = affine.for %j = 0 to 6 iter_args(%acc = %zero, %bot = %high) -> (f32, f32) {
      %x = affine.load %a[%i, %j] : memref<8x6xf32>
      %xx = arith.mulf %x, %x : f32
      %n = arith.addf %acc, %xx : f32
      %t = arith.minimumf %bot, %x : f32
      affine.yield %n, %t : f32, f32
    }
    affine.store %q, %squares[%i] : memref<8xf32>
    affine.store %b, %min[%i] : memref<8xf32>
  }
  call @printMemrefF32(%hsum) : (memref<*xf32>) -> ()
  call @printMemrefF32(%hmax) : (memref<*xf32>) -> ()
  call @printMemrefF32(%hsquares) : (memref<*xf32>) -> ()
  call @printMemrefF32(%hmin) : (memref<*xf32>) -> ()
  return
}
