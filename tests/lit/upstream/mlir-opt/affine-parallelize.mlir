// Affine loop nests made parallel by MLIR: --affine-parallelize turns each affine.for whose
// iterations are independent into an affine.parallel (a loop that carries a sum through memory,
// the k loop below, stays an affine.for), --lower-affine makes them scf.parallel and scf.for,
// and the parallel loops are mapped to the GPU. The index expressions (7 - i, (j + 1) mod 6)
// become arith, remsi with the correction of a negative remainder included.
// Expected output: numpy, from the NUMPY lines (Inputs/numpy_expect.py prints it, and the
// CHECK lines are what it printed).
// RUN: mlir-opt-22 %s --affine-parallelize --lower-affine --gpu-map-parallel-loops \
// RUN:   --convert-parallel-loops-to-gpu --canonicalize > %t.mlir
// RUN: filecheck %s --check-prefix=LOWERED < %t.mlir
// RUN: python %S/Inputs/numpy_expect.py %s | filecheck %s
// RUN: gpu-run %t.mlir --provider interp | filecheck %s
// RUN: gpu-run %t.mlir --provider cpu | filecheck %s

// LOWERED:      gpu.launch blocks({{.*}}) in (%{{.*}} = %c8, %{{.*}} = %c6, %{{.*}} = %c1)
// LOWERED:      gpu.launch blocks({{.*}}) in (%{{.*}} = %c8, %{{.*}} = %c6, %{{.*}} = %c1)
// LOWERED:        arith.remsi
// LOWERED:      gpu.launch blocks({{.*}}) in (%{{.*}} = %c8, %{{.*}} = %c1, %{{.*}} = %c1)
// LOWERED-NEXT:   memref.store %cst, %{{.*}}[%{{.*}}] : memref<8xf32>
// LOWERED-NEXT:   scf.for %{{.*}} = %c0 to %c6 step %c1 {

// NUMPY: i, j = np.indices((8, 6))
// NUMPY: a = (6 * i + j).astype(np.float32)
// NUMPY: b = a - a[7 - i, (j + 1) % 6]
// NUMPY: show(b)
// NUMPY: show((b * np.arange(6)).sum(axis=1).astype(np.float32))  # s[i] = sum over k of b[i][k] k

// CHECK:      rank = 2 offset = 0 sizes = [8, 6] strides = [6, 1] data =
// CHECK-NEXT: {{\[\[}}-43,   -43,   -43,   -43,   -43,   -37],
// CHECK-NEXT:  [-31,   -31,   -31,   -31,   -31,   -25],
// CHECK-NEXT:  [-19,   -19,   -19,   -19,   -19,   -13],
// CHECK-NEXT:  [-7,   -7,   -7,   -7,   -7,   -1],
// CHECK-NEXT:  [5,   5,   5,   5,   5,   11],
// CHECK-NEXT:  [17,   17,   17,   17,   17,   23],
// CHECK-NEXT:  [29,   29,   29,   29,   29,   35],
// CHECK-NEXT:  [41,   41,   41,   41,   41,   47]]
// CHECK:      rank = 1 offset = 0 sizes = [8] strides = [1] data =
// CHECK-NEXT: [-615,  -435,  -255,  -75,  105,  285,  465,  645]

func.func private @printMemrefF32(memref<*xf32>)
func.func @main() {
  %a = memref.alloc() : memref<8x6xf32>
  %b = memref.alloc() : memref<8x6xf32>
  %s = memref.alloc() : memref<8xf32>
  %ha = memref.cast %a : memref<8x6xf32> to memref<*xf32>
  %hb = memref.cast %b : memref<8x6xf32> to memref<*xf32>
  %hs = memref.cast %s : memref<8xf32> to memref<*xf32>
  gpu.host_register %ha : memref<*xf32>
  gpu.host_register %hb : memref<*xf32>
  gpu.host_register %hs : memref<*xf32>
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 6 {
      %k = affine.apply affine_map<(d0, d1) -> (d0 * 6 + d1)>(%i, %j)
      %ki = arith.index_cast %k : index to i32
      %f = arith.sitofp %ki : i32 to f32
      affine.store %f, %a[%i, %j] : memref<8x6xf32>
    }
  }
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 6 {
      %x = affine.load %a[%i, %j] : memref<8x6xf32>
      %y = affine.load %a[7 - %i, (%j + 1) mod 6] : memref<8x6xf32>
      %z = arith.subf %x, %y : f32
      affine.store %z, %b[%i, %j] : memref<8x6xf32>
    }
  }
  affine.for %i = 0 to 8 {
    %zero = arith.constant 0.0 : f32
    affine.store %zero, %s[%i] : memref<8xf32>
    affine.for %k = 0 to 6 {
      %x = affine.load %b[%i, %k] : memref<8x6xf32>
      %ki = arith.index_cast %k : index to i32
      %kf = arith.sitofp %ki : i32 to f32
      %p = arith.mulf %x, %kf : f32
      %acc = affine.load %s[%i] : memref<8xf32>
      %n = arith.addf %acc, %p : f32
      affine.store %n, %s[%i] : memref<8xf32>
    }
  }
  call @printMemrefF32(%hb) : (memref<*xf32>) -> ()
  call @printMemrefF32(%hs) : (memref<*xf32>) -> ()
  return
}
