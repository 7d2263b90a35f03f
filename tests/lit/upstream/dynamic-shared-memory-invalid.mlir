// Dynamic shared memory the import refuses, each an error at the op: gpuir gives a kernel one
// dynamic shared array, so its memref.views share one element type (and inner shape), start at
// a multiple of its size, and are the only use of gpu.dynamic_shared_memory's bytes; the bytes
// are memref<?xi8, #gpu.address_space<workgroup>>.
// RUN: not gpu-opt %s --split-input-file 2>&1 | filecheck %s

// CHECK: dynamic-shared-memory-invalid.mlir:14:7: error: importing upstream MLIR: 'memref.view' to memref<4xi32, #gpu.address_space<workgroup>>: a kernel's dynamic shared memory has one element type and inner shape in gpuir, and memref<4xf32, #gpu.address_space<workgroup>> has another
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k() kernel {
      %c0 = arith.constant 0 : index
      %bytes = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %a = memref.view %bytes[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<4xf32, #gpu.address_space<workgroup>>
      %b = memref.view %bytes[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<4xi32, #gpu.address_space<workgroup>>
      gpu.return
    }
  }
  func.func @main() {
    return
  }
}

// -----

// CHECK: dynamic-shared-memory-invalid.mlir:31:7: error: importing upstream MLIR: 'memref.view' at byte 6: a view of shared memory starts at a multiple of its element's (or row's) 4 bytes
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k() kernel {
      %c6 = arith.constant 6 : index
      %bytes = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %a = memref.view %bytes[%c6][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<4xf32, #gpu.address_space<workgroup>>
      gpu.return
    }
  }
  func.func @main() {
    return
  }
}

// -----

// CHECK: dynamic-shared-memory-invalid.mlir:48:7: error: importing upstream MLIR: 'memref.load' of gpu.dynamic_shared_memory's bytes is not supported (yet): only memref.view of them
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k() kernel {
      %c0 = arith.constant 0 : index
      %bytes = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %x = memref.load %bytes[%c0] : memref<?xi8, #gpu.address_space<workgroup>>
      gpu.return
    }
  }
  func.func @main() {
    return
  }
}

// -----

// CHECK:      dynamic-shared-memory-invalid.mlir:65:44: error: 'gpu.dynamic_shared_memory' expects memref<?xi8, #gpu.address_space<workgroup>>, found memref<?xf32, #gpu.address_space<workgroup>>
// CHECK-NEXT:       %bytes = gpu.dynamic_shared_memory : memref<?xf32, #gpu.address_space<workgroup>>
// CHECK-NEXT: {{^                                           \^+$}}
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k() kernel {
      %bytes = gpu.dynamic_shared_memory : memref<?xf32, #gpu.address_space<workgroup>>
      gpu.return
    }
  }
  func.func @main() {
    return
  }
}
