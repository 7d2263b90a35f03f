// What the importer refuses of ROCm's device-view shims: each error at the call, in its words.
// RUN: not gpu-opt %s --split-input-file 2>&1 | filecheck %s

// Host memory that was never registered has no device view.
// CHECK: rocm-shims-invalid.mlir:10:3: error: importing upstream MLIR: 'func.call' of memory that is not registered (gpu.host_register it)
func.func private @mgpuMemGetDeviceMemRef1dFloat(memref<?xf32>) -> memref<?xf32>
func.func @main() {
  %c4 = arith.constant 4 : index
  %h = memref.alloc(%c4) : memref<?xf32>
  %d = func.call @mgpuMemGetDeviceMemRef1dFloat(%h) : (memref<?xf32>) -> memref<?xf32>
  return
}

// -----

// The Int32 shim on f32 memory.
// CHECK: rocm-shims-invalid.mlir:24:3: error: importing upstream MLIR: 'func.call' of @mgpuMemGetDeviceMemRef1dInt32 takes and returns one memref<?xi32>
func.func private @mgpuMemGetDeviceMemRef1dInt32(memref<?xf32>) -> memref<?xf32>
func.func @main() {
  %c4 = arith.constant 4 : index
  %h = memref.alloc(%c4) : memref<?xf32>
  %u = memref.cast %h : memref<?xf32> to memref<*xf32>
  gpu.host_register %u : memref<*xf32>
  %d = func.call @mgpuMemGetDeviceMemRef1dInt32(%h) : (memref<?xf32>) -> memref<?xf32>
  return
}
