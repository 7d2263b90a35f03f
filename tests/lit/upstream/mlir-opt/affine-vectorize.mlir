// A loop that MLIR's affine super-vectorizer rewrites into vector.transfer_read / transfer_write
// of 4 lanes (the last of its 3 iterations reads and writes past the end of 10 elements: those
// lanes take the ub.poison padding and are not stored), run unchanged. b[i] = i * i + 1.
// Expected output: numpy, from the NUMPY lines (Inputs/numpy_expect.py prints it, and the
// CHECK lines are what it printed).
// RUN: mlir-opt-22 %s --affine-super-vectorize="virtual-vector-size=4" --lower-affine \
// RUN:   --canonicalize > %t.mlir
// RUN: filecheck %s --check-prefix=VECTORIZED < %t.mlir
// RUN: python %S/Inputs/numpy_expect.py %s | filecheck %s
// RUN: gpu-run %t.mlir --provider interp --upstream | filecheck %s
// RUN: gpu-run %t.mlir --provider cpu --upstream | filecheck %s

// VECTORIZED: vector.transfer_read {{.*}} : memref<10xf32>, vector<4xf32>
// VECTORIZED: vector.transfer_write {{.*}} : vector<4xf32>, memref<10xf32>

// NUMPY: i = np.arange(10, dtype=np.float32)
// NUMPY: show(i * i + 1)

// CHECK:      rank = 1 offset = 0 sizes = [10] strides = [1] data =
// CHECK-NEXT: [1,  2,  5,  10,  17,  26,  37,  50,  65,  82]

func.func private @printMemrefF32(memref<*xf32>)
func.func @main() {
  %a = memref.alloc() : memref<10xf32>
  %b = memref.alloc() : memref<10xf32>
  affine.for %i = 0 to 10 {
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    affine.store %f, %a[%i] : memref<10xf32>
  }
  affine.for %i = 0 to 10 {
    %x = affine.load %a[%i] : memref<10xf32>
    %y = arith.mulf %x, %x : f32
    %c = arith.constant 1.0 : f32
    %z = arith.addf %y, %c : f32
    affine.store %z, %b[%i] : memref<10xf32>
  }
  %hb = memref.cast %b : memref<10xf32> to memref<*xf32>
  call @printMemrefF32(%hb) : (memref<*xf32>) -> ()
  return
}
