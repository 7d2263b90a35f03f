// A semi-affine map (what --test-gpu-memory-promotion writes for its copy loops, before
// --lower-affine), which xDSL's affine maps cannot hold: a parse error at it, not a crash.
// RUN: not gpu-run %s 2>&1 | filecheck %s

// CHECK: affine-semi-affine-invalid.mlir:[[# @LINE + 2]]:{{[0-9]+}}: error: Multiplication with non-constant (semi-affine) is not supported yet {{.*}}; the import reads no affine ops or maps: lower them first (mlir-opt --lower-affine, as MLIR's gpu-lower-to-nvvm-pipeline does)

#map = affine_map<()[s0, s1] -> (s0 * s1)>
func.func @main() {
  %c2 = arith.constant 2 : index
  %m = memref.alloc() : memref<4xf32>
  %i = affine.apply #map()[%c2, %c2]
  return
}
