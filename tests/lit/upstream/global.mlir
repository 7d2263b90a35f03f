// memref.global (a dense table, and a splat whose literal takes the memref's type) and
// memref.get_global on the host: @main makes each global in host memory first. A kernel squares
// the registered table.
// RUN: gpu-run %s --provider interp | filecheck %s
// RUN: gpu-run %s --provider cpu | filecheck %s

// CHECK:      Unranked Memref base@ = {{0x[0-9a-f]+}} rank = 2 offset = 0 sizes = [2, 3] strides = [3, 1] data =
// CHECK-NEXT: {{\[}}[1,   4,   9],
// CHECK-NEXT:  [16,   25,   36]]
// CHECK-NEXT: Unranked Memref base@ = {{0x[0-9a-f]+}} rank = 1 offset = 0 sizes = [4] strides = [1] data =
// CHECK-NEXT: [1,  1,  1,  1]
// CHECK-EMPTY:

memref.global "private" constant @table : memref<2x3xf32> = dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]>
memref.global "private" @ones : memref<4xi32> = dense<1>
func.func private @printMemrefF32(memref<*xf32>)
func.func private @printMemrefI32(memref<*xi32>)
func.func @main() {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %t = memref.get_global @table : memref<2x3xf32>
  %o = memref.get_global @ones : memref<4xi32>
  %u = memref.cast %t : memref<2x3xf32> to memref<*xf32>
  gpu.host_register %u : memref<*xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c3, %sy = %c1, %sz = %c1) {
    %v = memref.load %t[%bx, %tx] : memref<2x3xf32>
    %w = arith.mulf %v, %v : f32
    memref.store %w, %t[%bx, %tx] : memref<2x3xf32>
    gpu.terminator
  }
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  %uo = memref.cast %o : memref<4xi32> to memref<*xi32>
  call @printMemrefI32(%uo) : (memref<*xi32>) -> ()
  return
}
