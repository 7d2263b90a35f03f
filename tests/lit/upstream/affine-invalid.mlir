// The import reads no affine ops (MLIR's pipelines lower them with --lower-affine, as
// gpu-lower-to-nvvm-pipeline does): an affine op is a parse error that says so.
// RUN: not gpu-run %s 2>&1 | filecheck %s

// CHECK: affine-invalid.mlir:11:14: error: Operation affine.for is not registered: the import reads no affine ops or maps: lower them first (mlir-opt --lower-affine, as MLIR's gpu-lower-to-nvvm-pipeline does)

func.func private @printMemrefF32(memref<*xf32>)
func.func @main() {
  %a = memref.alloc() : memref<4xf32>
  %one = arith.constant 1.0 : f32
  affine.for %i = 0 to 4 {
    affine.store %one, %a[%i] : memref<4xf32>
  }
  %h = memref.cast %a : memref<4xf32> to memref<*xf32>
  call @printMemrefF32(%h) : (memref<*xf32>) -> ()
  return
}
