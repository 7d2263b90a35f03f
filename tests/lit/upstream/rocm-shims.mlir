// ROCm's runtime shims mgpuMemGetDeviceMemRef1dFloat / mgpuMemGetDeviceMemRef1dInt32, as MLIR's
// ROCm tests call them: the device view of registered host memory, handed to a host function
// that launches on it. On gpuir's providers that view is the registered memory itself.
// RUN: gpu-run %s --provider interp | filecheck %s
// RUN: gpu-run %s --provider cpu | filecheck %s

// y[i] = x[i] * k[i] with x[i] = i + 0.5 and k[i] = 2 * i (i = 0..4):
// 0.5 * 0, 1.5 * 2, 2.5 * 4, 3.5 * 6, 4.5 * 8 = 0, 3, 10, 21, 36; k is doubled in place by the
// same kernel: 0, 4, 8, 12, 16.
// CHECK:      Unranked Memref base@ = {{0x[0-9a-f]+}} rank = 1 offset = 0 sizes = [5] strides = [1] data =
// CHECK-NEXT: [0,  3,  10,  21,  36]
// CHECK-NEXT: Unranked Memref base@ = {{0x[0-9a-f]+}} rank = 1 offset = 0 sizes = [5] strides = [1] data =
// CHECK-NEXT: [0,  4,  8,  12,  16]
// CHECK-EMPTY:

func.func @scale(%x: memref<?xf32>, %k: memref<?xi32>, %y: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %n, %sy = %c1, %sz = %c1) {
    %a = memref.load %x[%tx] : memref<?xf32>
    %b = memref.load %k[%tx] : memref<?xi32>
    %f = arith.sitofp %b : i32 to f32
    %p = arith.mulf %a, %f : f32
    memref.store %p, %y[%tx] : memref<?xf32>
    %d = arith.addi %b, %b : i32
    memref.store %d, %k[%tx] : memref<?xi32>
    gpu.terminator
  }
  return
}

func.func private @mgpuMemGetDeviceMemRef1dFloat(memref<?xf32>) -> memref<?xf32>
func.func private @mgpuMemGetDeviceMemRef1dInt32(memref<?xi32>) -> memref<?xi32>
func.func private @printMemrefF32(memref<*xf32>)
func.func private @printMemrefI32(memref<*xi32>)

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %half = arith.constant 0.5 : f32
  %x = memref.alloc() : memref<5xf32>
  %k = memref.alloc() : memref<5xi32>
  %y = memref.alloc() : memref<5xf32>
  scf.for %i = %c0 to %c5 step %c1 {
    %ii = arith.index_cast %i : index to i32
    %fi = arith.sitofp %ii : i32 to f32
    %xi = arith.addf %fi, %half : f32
    memref.store %xi, %x[%i] : memref<5xf32>
    %ki = arith.addi %ii, %ii : i32
    memref.store %ki, %k[%i] : memref<5xi32>
  }
  %xu = memref.cast %x : memref<5xf32> to memref<*xf32>
  %ku = memref.cast %k : memref<5xi32> to memref<*xi32>
  %yu = memref.cast %y : memref<5xf32> to memref<*xf32>
  gpu.host_register %xu : memref<*xf32>
  gpu.host_register %ku : memref<*xi32>
  gpu.host_register %yu : memref<*xf32>
  %xd = memref.cast %x : memref<5xf32> to memref<?xf32>
  %kd = memref.cast %k : memref<5xi32> to memref<?xi32>
  %yd = memref.cast %y : memref<5xf32> to memref<?xf32>
  %xv = call @mgpuMemGetDeviceMemRef1dFloat(%xd) : (memref<?xf32>) -> memref<?xf32>
  %kv = call @mgpuMemGetDeviceMemRef1dInt32(%kd) : (memref<?xi32>) -> memref<?xi32>
  %yv = call @mgpuMemGetDeviceMemRef1dFloat(%yd) : (memref<?xf32>) -> memref<?xf32>
  call @scale(%xv, %kv, %yv) : (memref<?xf32>, memref<?xi32>, memref<?xf32>) -> ()
  call @printMemrefF32(%yu) : (memref<*xf32>) -> ()
  call @printMemrefI32(%ku) : (memref<*xi32>) -> ()
  return
}
