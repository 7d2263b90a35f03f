// gpu.all_reduce minui and maxui against minsi and maxsi on -1, 0, 1, 2: the unsigned order
// puts -1 (0xffffffff) last.
// RUN: gpu-run %s --provider interp | filecheck %s
// RUN: gpu-run %s --provider cpu | filecheck %s

// CHECK:      Unranked Memref base@ = {{0x[0-9a-f]+}} rank = 1 offset = 0 sizes = [4] strides = [1] data =
// CHECK-NEXT: [0,  -1,  -1,  2]
// CHECK-EMPTY:

func.func private @printMemrefI32(memref<*xi32>)
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %out = memref.alloc() : memref<4xi32>
  %u = memref.cast %out : memref<4xi32> to memref<*xi32>
  gpu.host_register %u : memref<*xi32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    %t = arith.index_cast %tx : index to i32
    %k = arith.constant 1 : i32
    %v = arith.subi %t, %k : i32
    %low = gpu.all_reduce minui %v uniform {} : (i32) -> (i32)
    %high = gpu.all_reduce maxui %v uniform {} : (i32) -> (i32)
    %slow = gpu.all_reduce minsi %v uniform {} : (i32) -> (i32)
    %shigh = gpu.all_reduce maxsi %v uniform {} : (i32) -> (i32)
    %first = arith.cmpi eq, %tx, %c0 : index
    scf.if %first {
      %c3 = arith.constant 3 : index
      memref.store %low, %out[%c0] : memref<4xi32>
      memref.store %high, %out[%c1] : memref<4xi32>
      memref.store %slow, %out[%c2] : memref<4xi32>
      memref.store %shigh, %out[%c3] : memref<4xi32>
    }
    gpu.terminator
  }
  call @printMemrefI32(%u) : (memref<*xi32>) -> ()
  return
}
