// interp's sanitizer on an upstream program: 4 threads store their ids to one element; the race
// is reported at the upstream memref.store, and the allocation at its gpu.host_register.
// RUN: not gpu-run %s --provider interp 2>&1 | filecheck %s
// RUN: not gpu-run %s --provider cpu --check 2>&1 | filecheck %s

// CHECK: race.mlir:20:5: error: race on global memory: work-item (group 0, item 1) writes byte 0 of a 4-byte global allocation (by 'gpu.alloc.block' at {{.*}}race.mlir:16:3), which work-item (group 0, item 0) wrote a different value to ('mem.store' at {{.*}}race.mlir:20:5); no barrier between them
// CHECK-NEXT: memref.store %v, %out[%c0] : memref<1xi32>

func.func private @printMemrefI32(memref<*xi32>)
func.func @main() {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c0 = arith.constant 0 : index
  %out = memref.alloc() : memref<1xi32>
  %cast = memref.cast %out : memref<1xi32> to memref<*xi32>
  gpu.host_register %cast : memref<*xi32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    %v = arith.index_cast %tx : index to i32
    memref.store %v, %out[%c0] : memref<1xi32>
    gpu.terminator
  }
  call @printMemrefI32(%cast) : (memref<*xi32>) -> ()
  return
}
