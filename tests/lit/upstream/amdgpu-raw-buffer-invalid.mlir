// What the importer refuses of the amdgpu raw buffer ops, each an error at the op: MLIR's
// verifier rules (a memref of global memory, one i32 index per dimension, i32 offsets, the
// value of the memref's element type, an atomic's value types) and the forms gpuir does not
// read (yet): a vector of more than one dimension, fadd of vector<2xf16>, a subview.
// RUN: not gpu-opt %s --split-input-file 2>&1 | filecheck %s

// CHECK: amdgpu-raw-buffer-invalid.mlir:14:5: error: 'amdgpu.raw_buffer_load' expects 2 indices into memref<2x3xf32>, found 1
func.func @main() {
  %c1 = arith.constant 1 : index
  %m = memref.alloc() : memref<2x3xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %i = arith.constant 0 : i32
    %v = amdgpu.raw_buffer_load %m[%i] : memref<2x3xf32>, i32 -> f32
    gpu.terminator
  }
  return
}

// -----

// CHECK: amdgpu-raw-buffer-invalid.mlir:29:5: error: 'amdgpu.raw_buffer_load' expects i32 indices and offset, found i64
func.func @main() {
  %c1 = arith.constant 1 : index
  %m = memref.alloc() : memref<4xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %i = arith.constant 0 : i64
    %v = amdgpu.raw_buffer_load %m[%i] : memref<4xf32>, i64 -> f32
    gpu.terminator
  }
  return
}

// -----

// CHECK: amdgpu-raw-buffer-invalid.mlir:44:5: error: 'amdgpu.raw_buffer_load' expects a value of memref<4xf32>'s element type, found i32
func.func @main() {
  %c1 = arith.constant 1 : index
  %m = memref.alloc() : memref<4xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %i = arith.constant 0 : i32
    %v = amdgpu.raw_buffer_load %m[%i] sgprOffset %i : memref<4xf32>, i32 -> i32
    gpu.terminator
  }
  return
}

// -----

// CHECK: amdgpu-raw-buffer-invalid.mlir:60:5: error: 'amdgpu.raw_buffer_load' expects i32 indices and offset, found index
func.func @main() {
  %c1 = arith.constant 1 : index
  %m = memref.alloc() : memref<4xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %i = arith.constant 0 : i32
    %x = arith.constant 0 : index
    %v = amdgpu.raw_buffer_load %m[%i] sgprOffset %x : memref<4xf32>, i32 -> f32
    gpu.terminator
  }
  return
}

// -----

// CHECK: amdgpu-raw-buffer-invalid.mlir:75:5: error: importing upstream MLIR: 'amdgpu.raw_buffer_load' of vector<2x2xf32> is not supported: only of a scalar or a 1-d vector
func.func @main() {
  %c1 = arith.constant 1 : index
  %m = memref.alloc() : memref<4xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %i = arith.constant 0 : i32
    %v = amdgpu.raw_buffer_load %m[%i] : memref<4xf32>, i32 -> vector<2x2xf32>
    gpu.terminator
  }
  return
}

// -----

// CHECK: amdgpu-raw-buffer-invalid.mlir:91:5: error: 'amdgpu.raw_buffer_store' expects a memref of global memory, found memref<4xf32, #gpu.address_space<workgroup>>
func.func @main() {
  %c1 = arith.constant 1 : index
  %m = memref.alloc() : memref<4xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %i = arith.constant 0 : i32
    %w = memref.alloca() : memref<4xf32, #gpu.address_space<workgroup>>
    amdgpu.raw_buffer_store %i -> %w[%i] : i32 -> memref<4xf32, #gpu.address_space<workgroup>>, i32
    gpu.terminator
  }
  return
}

// -----

// CHECK: amdgpu-raw-buffer-invalid.mlir:107:5: error: 'amdgpu.raw_buffer_atomic_smax' of i64 is not supported: only of i32
func.func @main() {
  %c1 = arith.constant 1 : index
  %m = memref.alloc() : memref<4xi64>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %i = arith.constant 0 : i32
    %x = arith.constant 1 : i64
    amdgpu.raw_buffer_atomic_smax %x -> %m[%i] : i64 -> memref<4xi64>, i32
    gpu.terminator
  }
  return
}

// -----

// CHECK: amdgpu-raw-buffer-invalid.mlir:123:5: error: 'amdgpu.raw_buffer_atomic_fadd' of vector<2xf16> is not supported: only of f32
func.func @main() {
  %c1 = arith.constant 1 : index
  %m = memref.alloc() : memref<4xf16>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %i = arith.constant 0 : i32
    %x = arith.constant dense<1.0> : vector<2xf16>
    amdgpu.raw_buffer_atomic_fadd %x -> %m[%i] : vector<2xf16> -> memref<4xf16>, i32
    gpu.terminator
  }
  return
}

// -----

// CHECK: amdgpu-raw-buffer-invalid.mlir:139:5: error: 'amdgpu.raw_buffer_atomic_cmpswap' expects src and cmp of one type, found i32 and i64
func.func @main() {
  %c1 = arith.constant 1 : index
  %m = memref.alloc() : memref<4xi32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %i = arith.constant 0 : i32
    %x = arith.constant 1 : i64
    %v = amdgpu.raw_buffer_atomic_cmpswap %i, %x -> %m[%i] : i32 -> memref<4xi32>, i32
    gpu.terminator
  }
  return
}

// -----

// CHECK: amdgpu-raw-buffer-invalid.mlir:156:5: error: importing upstream MLIR: 'amdgpu.raw_buffer_load' of a memref.subview is not supported (yet)
func.func @main() {
  %c1 = arith.constant 1 : index
  %m = memref.alloc() : memref<4x4xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %i = arith.constant 0 : i32
    %c0 = arith.constant 0 : index
    %s = memref.subview %m[%c0, %c0] [2, 2] [1, 1] : memref<4x4xf32> to memref<2x2xf32, strided<[4, 1], offset: ?>>
    %v = amdgpu.raw_buffer_load %s[%i, %i] : memref<2x2xf32, strided<[4, 1], offset: ?>>, i32, i32 -> f32
    gpu.terminator
  }
  return
}

// -----

// CHECK: amdgpu-raw-buffer-invalid.mlir:171:51: error: Expected an operand.
func.func @main() {
  %c1 = arith.constant 1 : index
  %m = memref.alloc() : memref<4xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %i = arith.constant 0 : i32
    %v = amdgpu.raw_buffer_load %m[%i] sgprOffset : memref<4xf32>, i32 -> f32
    gpu.terminator
  }
  return
}
