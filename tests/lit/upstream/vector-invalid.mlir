// What the importer refuses of upstream `vector`: each error at the op, in its words.
// RUN: not gpu-opt %s --upstream --split-input-file 2>&1 | filecheck %s

// vector.print prints what mlir-runner's printers print: i1 to i64, index, f32 and f64.
// CHECK: {{.*}}vector-invalid.mlir:8:3: error: importing upstream MLIR: 'vector.print' of f16 is not supported (yet)
func.func @main() {
  %x = arith.constant 1.0 : f16
  vector.print %x : f16
  return
}

// -----

// A transfer's mask has the vector's shape (a broadcast dimension would drop one).
// CHECK: {{.*}}vector-invalid.mlir:21:3: error: importing upstream MLIR: 'vector.transfer_read' with a mask of vector<2xi1> for a vector<2x2xf32> is not supported (yet)
func.func @main() {
  %c0 = arith.constant 0 : index
  %p = arith.constant 0.0 : f32
  %m = vector.constant_mask [1] : vector<2xi1>
  %a = memref.alloc() : memref<4x4xf32>
  %v = vector.transfer_read %a[%c0, %c0], %p, %m {permutation_map = affine_map<(d0, d1) -> (0, d1)>} : memref<4x4xf32>, vector<2x2xf32>
  return
}

// -----

// Each result of a transfer's permutation map is one memref dimension or the constant 0.
// CHECK: {{.*}}vector-invalid.mlir:33:3: error: "vector.transfer_read" requires a projected permutation_map (at most one dim or the zero constant can appear in each result)
func.func @main() {
  %c0 = arith.constant 0 : index
  %p = arith.constant 0.0 : f32
  %a = memref.alloc() : memref<4x4xf32>
  %v = vector.transfer_read %a[%c0, %c0], %p {permutation_map = affine_map<(d0, d1) -> (d0 + d1)>} : memref<4x4xf32>, vector<2xf32>
  return
}

// -----

// vector.print's punctuation kinds are MLIR's.
// CHECK: {{.*}}vector-invalid.mlir:42:38: error: expected one of no_punctuation, newline, comma, open, close, found semicolon
func.func @main() {
  vector.print punctuation <semicolon>
  return
}

// -----

// Vector ops are verified as they are imported.
// CHECK: {{.*}}vector-invalid.mlir:51:3: error: 'vector.constant_mask' expects 2 sizes for vector<2x2xi1>, found 1
func.func @main() {
  %m = vector.constant_mask [1] : vector<2x2xi1>
  return
}

// -----

// vector.step makes a 1-d vector.
// CHECK: {{.*}}vector-invalid.mlir:60:3: error: importing upstream MLIR: 'vector.step' of vector<2x2xindex> is not supported: only of a 1-d vector
func.func @main() {
  %s = vector.step : vector<2x2xindex>
  return
}
