// memref.dealloc of registered host memory frees its device copy too, so later launches copy
// only what is still registered (interp would report a use after free otherwise).
// RUN: gpu-run %s --provider interp | filecheck %s
// RUN: gpu-run %s --provider cpu | filecheck %s

// CHECK:      Unranked Memref base@ = {{0x[0-9a-f]+}} rank = 1 offset = 0 sizes = [4] strides = [1] data =
// CHECK-NEXT: [0,  1,  2,  3]
// CHECK-NEXT: Unranked Memref base@ = {{0x[0-9a-f]+}} rank = 1 offset = 0 sizes = [4] strides = [1] data =
// CHECK-NEXT: [0,  1,  4,  9]
// CHECK-EMPTY:

func.func private @printMemrefI32(memref<*xi32>)
func.func @main() {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %a = memref.alloc() : memref<4xi32>
  %b = memref.alloc() : memref<4xi32>
  %ua = memref.cast %a : memref<4xi32> to memref<*xi32>
  %ub = memref.cast %b : memref<4xi32> to memref<*xi32>
  gpu.host_register %ua : memref<*xi32>
  gpu.host_register %ub : memref<*xi32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    %v = arith.index_cast %tx : index to i32
    memref.store %v, %a[%tx] : memref<4xi32>
    gpu.terminator
  }
  call @printMemrefI32(%ua) : (memref<*xi32>) -> ()
  memref.dealloc %a : memref<4xi32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    %v = arith.index_cast %tx : index to i32
    %w = arith.muli %v, %v : i32
    memref.store %w, %b[%tx] : memref<4xi32>
    gpu.terminator
  }
  call @printMemrefI32(%ub) : (memref<*xi32>) -> ()
  memref.dealloc %b : memref<4xi32>
  return
}
