// async-invalid.mlir's program: @main reads h[0] before it awaits the execute that copies
// device memory into h.
func.func @main() {
  %c0 = arith.constant 0 : index
  %h = memref.alloc() : memref<4xi32>
  %t, %v = async.execute () -> !async.value<memref<4xi32>> {
    %d = gpu.alloc () : memref<4xi32>
    gpu.memcpy %h, %d : memref<4xi32>, memref<4xi32>
    async.yield %d : memref<4xi32>
  }
  %x = memref.load %h[%c0] : memref<4xi32>
  async.await %t : !async.token
  return
}
