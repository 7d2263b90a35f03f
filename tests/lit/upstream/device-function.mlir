// Functions of a gpu.module that are not kernels (a func.func returning a value, a gpu.func
// storing through a memref), called from a kernel: inlined at each call.
// RUN: gpu-run %s --provider interp | filecheck %s
// RUN: gpu-run %s --provider cpu | filecheck %s

// CHECK:      Unranked Memref base@ = {{0x[0-9a-f]+}} rank = 1 offset = 0 sizes = [5] strides = [1] data =
// CHECK-NEXT: [0,  1,  4,  9,  16]
// CHECK-EMPTY:

module attributes {gpu.container_module} {
  gpu.module @kernels {
    func.func @square(%x: f32) -> f32 {
      %y = arith.mulf %x, %x : f32
      return %y : f32
    }
    gpu.func @put(%out: memref<?xf32>, %i: index, %v: f32) {
      memref.store %v, %out[%i] : memref<?xf32>
      gpu.return
    }
    gpu.func @k(%out: memref<?xf32>) kernel {
      %t = gpu.thread_id x
      %ti = arith.index_cast %t : index to i32
      %f = arith.sitofp %ti : i32 to f32
      %s = func.call @square(%f) : (f32) -> f32
      func.call @put(%out, %t, %s) : (memref<?xf32>, index, f32) -> ()
      gpu.return
    }
  }
  func.func private @printMemrefF32(memref<*xf32>)
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c5 = arith.constant 5 : index
    %h = memref.alloc(%c5) : memref<?xf32>
    %u = memref.cast %h : memref<?xf32> to memref<*xf32>
    gpu.host_register %u : memref<*xf32>
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c5, %c1, %c1) args(%h : memref<?xf32>)
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    return
  }
}
