// gpu.memset of host memory: the value stored into each element (printMemrefI32's layout as
// mlir-runner-22 prints it).
// RUN: gpu-run %s --provider interp | filecheck %s
// RUN: gpu-run %s --provider cpu | filecheck %s

// CHECK:      Unranked Memref base@ = {{0x[0-9a-f]+}} rank = 2 offset = 0 sizes = [2, 3] strides = [3, 1] data =
// CHECK-NEXT: {{\[}}[7,   7,   7],
// CHECK-NEXT:  [7,   7,   7]]
// CHECK-EMPTY:

func.func private @printMemrefI32(memref<*xi32>)
func.func @main() {
  %v = arith.constant 7 : i32
  %h = memref.alloc() : memref<2x3xi32>
  gpu.memset %h, %v : memref<2x3xi32>, i32
  %u = memref.cast %h : memref<2x3xi32> to memref<*xi32>
  call @printMemrefI32(%u) : (memref<*xi32>) -> ()
  return
}
