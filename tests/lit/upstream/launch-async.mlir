// The async form of gpu.launch that MLIR writes: `gpu.launch async [%deps]` with a token result,
// waited on by `gpu.wait [%tok]` (gpuir runs each launch in order, so the tokens order nothing
// more), and the attribute dictionary after the region. Each of 4 threads stores 10 times its id.
// RUN: gpu-run %s --provider interp | filecheck %s
// RUN: gpu-run %s --provider cpu | filecheck %s

// CHECK:      Unranked Memref base@ = {{0x[0-9a-f]+}} rank = 1 offset = 0 sizes = [4] strides = [1] data =
// CHECK-NEXT: [0,  10,  20,  30]

module {
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %m = memref.alloc() : memref<4xf32>
    %h = memref.cast %m : memref<4xf32> to memref<*xf32>
    gpu.host_register %h : memref<*xf32>
    %w = gpu.wait async
    %tok = gpu.launch async [%w] blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
      %i = arith.index_cast %tx : index to i32
      %ten = arith.constant 10 : i32
      %t = arith.muli %i, %ten : i32
      %v = arith.sitofp %t : i32 to f32
      memref.store %v, %m[%tx] : memref<4xf32>
      gpu.terminator
    } {SCFToGPU_visited}
    gpu.wait [%tok]
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
      gpu.terminator
    } {origin = "a second launch", count = 2 : i64}
    call @printMemrefF32(%h) : (memref<*xf32>) -> ()
    return
  }
  func.func private @printMemrefF32(memref<*xf32>)
}
