// A memref cast to dynamic inner extents before a gpu.launch uses it, as MLIR's all-reduce-op
// test does: the kernel takes the pointer the host made (its static inner extents), and the
// dims the kernel reads are the launch's.
// RUN: gpu-run %s --provider interp | filecheck %s
// RUN: gpu-run %s --provider cpu | filecheck %s

// CHECK:      Unranked Memref base@ = {{0x[0-9a-f]+}} rank = 2 offset = 0 sizes = [2, 3] strides = [3, 1] data =
// CHECK-NEXT: {{\[}}[0, 1, 2],
// CHECK-NEXT:  [10, 11, 12]]

func.func private @printMemrefI32(memref<*xi32>)
func.func @main() {
  %a = memref.alloc() : memref<2x3xi32>
  %d = memref.cast %a : memref<2x3xi32> to memref<?x?xi32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %sx = memref.dim %d, %c1 : memref<?x?xi32>
  %sy = memref.dim %d, %c0 : memref<?x?xi32>
  %u = memref.cast %d : memref<?x?xi32> to memref<*xi32>
  gpu.host_register %u : memref<*xi32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%nx = %sx, %ny = %sy, %nz = %c1) {
    %c10 = arith.constant 10 : index
    %row = arith.muli %ty, %c10 : index
    %v = arith.addi %row, %tx : index
    %i = arith.index_cast %v : index to i32
    memref.store %i, %d[%ty, %tx] : memref<?x?xi32>
    gpu.terminator
  }
  func.call @printMemrefI32(%u) : (memref<*xi32>) -> ()
  return
}
