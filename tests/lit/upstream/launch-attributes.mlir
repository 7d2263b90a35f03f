// The attribute dictionary MLIR prints after a gpu.launch region: mlir-opt-22's
// --convert-parallel-loops-to-gpu marks each launch it makes with `{SCFToGPU_visited}`, and a
// launch may carry any discardable attribute there. The import reads it and drops it (it
// orders nothing): each of 4 threads stores its id, as a float, to its element.
// RUN: gpu-run %s --provider interp | filecheck %s
// RUN: gpu-run %s --provider cpu | filecheck %s
// RUN: gpu-opt %s | filecheck %s --check-prefix=IMPORTED

// CHECK:      Unranked Memref base@ = {{0x[0-9a-f]+}} rank = 1 offset = 0 sizes = [4] strides = [1] data =
// CHECK-NEXT: [0,  10,  20,  30]

// IMPORTED:     gpu.launch @
// IMPORTED-NOT: SCFToGPU_visited

module {
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %m = memref.alloc() : memref<4xf32>
    %h = memref.cast %m : memref<4xf32> to memref<*xf32>
    gpu.host_register %h : memref<*xf32>
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
      %i = arith.index_cast %tx : index to i32
      %ten = arith.constant 10 : i32
      %t = arith.muli %i, %ten : i32
      %v = arith.sitofp %t : i32 to f32
      memref.store %v, %m[%tx] : memref<4xf32>
      gpu.terminator
    } {SCFToGPU_visited}
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
      gpu.terminator
    } {origin = "a second launch", count = 2 : i64}
    call @printMemrefF32(%h) : (memref<*xf32>) -> ()
    return
  }
  func.func private @printMemrefF32(memref<*xf32>)
}
