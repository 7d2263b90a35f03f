// memref.get_global in kernels: a constant memref.global of the kernel's gpu.module (where
// mlir-opt-22 --gpu-kernel-outlining copies a global that a gpu.launch body reads), and of the
// program in a gpu.launch body. Each work-item reads a private array of the global's elements.
// RUN: gpu-run %s --provider interp | filecheck %s
// RUN: gpu-run %s --provider cpu | filecheck %s

// @k: out[t] = coef[t / 3][t % 3] * t + bias[t], coef = [[1, 2, 3], [4, 5, 6]], bias all 10:
// 1*0+10, 2*1+10, 3*2+10, 4*3+10, 5*4+10, 6*5+10 = 10, 12, 16, 22, 30, 40.
// CHECK:      Unranked Memref base@ = {{0x[0-9a-f]+}} rank = 1 offset = 0 sizes = [6] strides = [1] data =
// CHECK-NEXT: [10,  12,  16,  22,  30,  40]
// The gpu.launch body: scaled[t] = scale[t] * 4, scale = [0.5, 2, -1]: 2, 8, -4.
// CHECK-NEXT: Unranked Memref base@ = {{0x[0-9a-f]+}} rank = 1 offset = 0 sizes = [3] strides = [1] data =
// CHECK-NEXT: [2,  8,  -4]
// CHECK-EMPTY:

module attributes {gpu.container_module} {
  gpu.module @kernels {
    memref.global "private" constant @coef : memref<2x3xi32> = dense<[[1, 2, 3], [4, 5, 6]]>
    memref.global "private" constant @bias : memref<6xi32> = dense<10>
    gpu.func @k(%out: memref<6xi32>) kernel {
      %c3 = arith.constant 3 : index
      %t = gpu.thread_id x
      %row = arith.divui %t, %c3 : index
      %col = arith.remui %t, %c3 : index
      %coef = memref.get_global @coef : memref<2x3xi32>
      %bias = memref.get_global @bias : memref<6xi32>
      %c = memref.load %coef[%row, %col] : memref<2x3xi32>
      %b = memref.load %bias[%t] : memref<6xi32>
      %ti = arith.index_cast %t : index to i32
      %p = arith.muli %c, %ti : i32
      %v = arith.addi %p, %b : i32
      memref.store %v, %out[%t] : memref<6xi32>
      gpu.return
    }
  }
  memref.global "private" constant @scale : memref<3xf32> = dense<[0.5, 2.0, -1.0]>
  func.func private @printMemrefI32(memref<*xi32>)
  func.func private @printMemrefF32(memref<*xf32>)
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c6 = arith.constant 6 : index
    %out = memref.alloc() : memref<6xi32>
    %uo = memref.cast %out : memref<6xi32> to memref<*xi32>
    gpu.host_register %uo : memref<*xi32>
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c6, %c1, %c1) args(%out : memref<6xi32>)
    %scaled = memref.alloc() : memref<3xf32>
    %us = memref.cast %scaled : memref<3xf32> to memref<*xf32>
    gpu.host_register %us : memref<*xf32>
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c3, %sy = %c1, %sz = %c1) {
      %scale = memref.get_global @scale : memref<3xf32>
      %s = memref.load %scale[%tx] : memref<3xf32>
      %four = arith.constant 4.0 : f32
      %v = arith.mulf %s, %four : f32
      memref.store %v, %scaled[%tx] : memref<3xf32>
      gpu.terminator
    }
    call @printMemrefI32(%uo) : (memref<*xi32>) -> ()
    call @printMemrefF32(%us) : (memref<*xf32>) -> ()
    return
  }
}
