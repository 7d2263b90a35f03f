// amdgpu.raw_buffer_load without boundsCheck checks nothing: a vector<2xf32> at element 3 of a
// memref<4xf32> reads its last element and then the 4 bytes just past it (bytes 16 to 19 of a
// 16-byte allocation), an out-of-bounds access that interp reports. With boundsCheck (the
// default) the same load would read 0 there (amdgpu-raw-buffer.mlir).
// RUN: not gpu-run %s --provider interp 2>&1 | filecheck %s

// CHECK:      amdgpu-raw-buffer-out-of-bounds.mlir:24:5: error: out of bounds: work-item (group 0, item 0) loads 4 bytes from byte offset 16 of a 16-byte global allocation
// CHECK-SAME: (bytes 16 to 19, valid 0 to 15)
// CHECK-NEXT: amdgpu.raw_buffer_load {boundsCheck = false}
// CHECK-NOT: Traceback

func.func @main() {
  %c1 = arith.constant 1 : index
  %a = memref.alloc() : memref<4xf32>
  %b = memref.alloc() : memref<2xf32>
  %ua = memref.cast %a : memref<4xf32> to memref<*xf32>
  %ub = memref.cast %b : memref<2xf32> to memref<*xf32>
  gpu.host_register %ua : memref<*xf32>
  gpu.host_register %ub : memref<*xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %i0 = arith.constant 0 : i32
    %i3 = arith.constant 3 : i32
    %v = amdgpu.raw_buffer_load {boundsCheck = false} %a[%i3] : memref<4xf32>, i32 -> vector<2xf32>
    amdgpu.raw_buffer_store %v -> %b[%i0] : vector<2xf32> -> memref<2xf32>, i32
    gpu.terminator
  }
  return
}
