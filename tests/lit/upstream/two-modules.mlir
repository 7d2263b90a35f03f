// Two gpu.modules whose kernels have the same name, launched one after the other on host
// memory registered once: the importer names them @k and @k_1. The first stores thread ids,
// the second doubles them.
// RUN: gpu-run %s --provider interp | filecheck %s
// RUN: gpu-run %s --provider cpu | filecheck %s
// RUN: gpu-opt %s | filecheck %s --check-prefix=IMPORTED

// CHECK:      Unranked Memref base@ = {{0x[0-9a-f]+}} rank = 1 offset = 0 sizes = [6] strides = [1] data =
// CHECK-NEXT: [0,  2,  4,  6,  8,  10]
// CHECK-EMPTY:

// IMPORTED: func.func @k(
// IMPORTED: func.func @k_1(
// IMPORTED: gpu.launch @k grid
// IMPORTED: gpu.launch @k_1 grid

module attributes {gpu.container_module} {
  gpu.module @first {
    gpu.func @k(%out: memref<?xi32>) kernel {
      %t = gpu.thread_id x
      %v = arith.index_cast %t : index to i32
      memref.store %v, %out[%t] : memref<?xi32>
      gpu.return
    }
  }
  gpu.module @second {
    gpu.func @k(%out: memref<?xi32>) kernel {
      %t = gpu.thread_id x
      %v = memref.load %out[%t] : memref<?xi32>
      %w = arith.addi %v, %v : i32
      memref.store %w, %out[%t] : memref<?xi32>
      gpu.return
    }
  }
  func.func private @printMemrefI32(memref<*xi32>)
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c6 = arith.constant 6 : index
    %h = memref.alloc(%c6) : memref<?xi32>
    %u = memref.cast %h : memref<?xi32> to memref<*xi32>
    gpu.host_register %u : memref<*xi32>
    gpu.launch_func @first::@k blocks in (%c1, %c1, %c1) threads in (%c6, %c1, %c1) args(%h : memref<?xi32>)
    %t = gpu.launch_func async @second::@k blocks in (%c1, %c1, %c1) threads in (%c6, %c1, %c1) args(%h : memref<?xi32>)
    gpu.wait [%t]
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    return
  }
}
