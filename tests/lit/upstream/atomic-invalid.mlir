// What the importer refuses of memref.atomic_rmw: each error at the op, in its words.
// RUN: not gpu-opt --upstream %s --split-input-file 2>&1 | filecheck %s

// A float kind on an integer (MLIR's verifier refuses it too).
// CHECK: atomic-invalid.mlir:10:3: error: importing upstream MLIR: 'memref.atomic_rmw' of kind mulf on i32
func.func @main() {
  %m = memref.alloc() : memref<4xi32>
  %c0 = arith.constant 0 : index
  %v = arith.constant 2 : i32
  %r = memref.atomic_rmw mulf %v, %m[%c0] : (i32, memref<4xi32>) -> i32
  return
}

// -----

// gpuir's atomics are of 32- or 64-bit values (as CUDA's).
// CHECK: atomic-invalid.mlir:22:3: error: importing upstream MLIR: 'memref.atomic_rmw' of i16: only of 32- or 64-bit integers, index, f32, f64
func.func @main() {
  %m = memref.alloc() : memref<4xi16>
  %c0 = arith.constant 0 : index
  %v = arith.constant 2 : i16
  %r = memref.atomic_rmw addi %v, %m[%c0] : (i16, memref<4xi16>) -> i16
  return
}
