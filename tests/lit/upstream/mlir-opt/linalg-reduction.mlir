// Reductions written as linalg.generic with a "reduction" iterator, lowered to parallel loops and
// mapped to the GPU: the parallel dimension becomes the blocks of a gpu.launch, the reduction
// dimension an scf.for inside the kernel that reads and writes its accumulator in memory. Row
// sums of squares (along the inner dimension) and column maxima (along the outer one, through a
// transposed indexing map), after linalg.fill of their initial values.
// Expected output: numpy, from the NUMPY lines (Inputs/numpy_expect.py prints it, and the
// CHECK lines are what it printed).
// RUN: mlir-opt-22 %s --convert-linalg-to-parallel-loops --gpu-map-parallel-loops \
// RUN:   --convert-parallel-loops-to-gpu --lower-affine --canonicalize > %t.mlir
// RUN: filecheck %s --check-prefix=LOWERED < %t.mlir
// RUN: python %S/Inputs/numpy_expect.py %s | filecheck %s
// RUN: gpu-run %t.mlir --provider interp | filecheck %s
// RUN: gpu-run %t.mlir --provider cpu | filecheck %s

// LOWERED:      gpu.launch blocks
// LOWERED:      scf.for %[[K:.*]] = %c0 to %c7 step %c1 {
// LOWERED-NEXT:   memref.load %{{.*}}[%{{.*}}, %[[K]]] : memref<5x7xf32>
// LOWERED:        arith.addf
// LOWERED:      scf.for %[[K:.*]] = %c0 to %c5 step %c1 {
// LOWERED-NEXT:   memref.load %{{.*}}[%[[K]], %{{.*}}] : memref<5x7xf32>
// LOWERED:        arith.maximumf

// NUMPY: i, j = np.indices((5, 7))
// NUMPY: a = ((3 * i + j * j) % 7 - 2).astype(np.float32)
// NUMPY: show((a * a).sum(axis=1))
// NUMPY: show(a.max(axis=0))

// CHECK:      rank = 1 offset = 0 sizes = [5] strides = [1] data =
// CHECK-NEXT: [14,  35,  28,  42,  49]
// CHECK:      rank = 1 offset = 0 sizes = [7] strides = [1] data =
// CHECK-NEXT: [4,  4,  4,  3,  3,  4,  4]

func.func private @printMemrefF32(memref<*xf32>)
func.func @main() {
  %a = memref.alloc() : memref<5x7xf32>
  %s = memref.alloc() : memref<5xf32>
  %m = memref.alloc() : memref<7xf32>
  %ha = memref.cast %a : memref<5x7xf32> to memref<*xf32>
  %hs = memref.cast %s : memref<5xf32> to memref<*xf32>
  %hm = memref.cast %m : memref<7xf32> to memref<*xf32>
  gpu.host_register %ha : memref<*xf32>
  gpu.host_register %hs : memref<*xf32>
  gpu.host_register %hm : memref<*xf32>
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]} outs(%a : memref<5x7xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c3 = arith.constant 3 : index
    %c7 = arith.constant 7 : index
    %t = arith.muli %i, %c3 : index
    %jj = arith.muli %j, %j : index
    %u = arith.addi %t, %jj : index
    %r = arith.remui %u, %c7 : index
    %ri = arith.index_cast %r : index to i32
    %two = arith.constant 2 : i32
    %v = arith.subi %ri, %two : i32
    %f = arith.sitofp %v : i32 to f32
    linalg.yield %f : f32
  }
  %zero = arith.constant 0.0 : f32
  %low = arith.constant -1.0e30 : f32
  linalg.fill ins(%zero : f32) outs(%s : memref<5xf32>)
  linalg.fill ins(%low : f32) outs(%m : memref<7xf32>)
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%a : memref<5x7xf32>) outs(%s : memref<5xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %y = arith.mulf %x, %x : f32
    %r = arith.addf %acc, %y : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [affine_map<(j, i) -> (i, j)>, affine_map<(j, i) -> (j)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%a : memref<5x7xf32>) outs(%m : memref<7xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %r = arith.maximumf %acc, %x : f32
    linalg.yield %r : f32
  }
  call @printMemrefF32(%hs) : (memref<*xf32>) -> ()
  call @printMemrefF32(%hm) : (memref<*xf32>) -> ()
  return
}
