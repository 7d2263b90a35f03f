// gpu.memset (async, waited on) of a 3x2 device memref, then gpu.memcpy back and printMemrefF32.
// RUN: gpu-run %s --provider interp | filecheck %s
// RUN: gpu-run %s --provider cpu | filecheck %s

// CHECK:      Unranked Memref base@ = {{0x[0-9a-f]+}} rank = 2 offset = 0 sizes = [3, 2] strides = [2, 1] data =
// CHECK-NEXT: {{\[}}[1.5,   1.5],
// CHECK-NEXT:  [1.5,   1.5],
// CHECK-NEXT:  [1.5,   1.5]]
// CHECK-EMPTY:

func.func private @printMemrefF32(memref<*xf32>)
func.func @main() {
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %v = arith.constant 1.5 : f32
  %d = gpu.alloc(%c3) : memref<?x2xf32>
  %t = gpu.memset async %d, %v : memref<?x2xf32>, f32
  gpu.wait [%t]
  %h = memref.alloc(%c3) : memref<?x2xf32>
  gpu.memcpy %h, %d : memref<?x2xf32>, memref<?x2xf32>
  %u = memref.cast %h : memref<?x2xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
