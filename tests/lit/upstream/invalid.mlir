// What the importer refuses: each error at the op, in its words.
// RUN: not gpu-opt %s --split-input-file 2>&1 | filecheck %s

// CHECK: invalid.mlir:14:5: error: importing upstream MLIR: a kernel takes host memory that is not registered (gpu.host_register it, or copy it to a gpu.alloc)
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%a: memref<4xf32>) kernel {
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %h = memref.alloc() : memref<4xf32>
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%h : memref<4xf32>)
    return
  }
}

// -----

// CHECK: invalid.mlir:24:3: error: importing upstream MLIR: 'memref.alloc' of memref<4x?xf32>: only the outermost dimension may be dynamic
func.func @main() {
  %n = arith.constant 3 : index
  %m = memref.alloc(%n) : memref<4x?xf32>
  return
}

// -----

// CHECK: invalid.mlir:34:5: error: importing upstream MLIR: 'gpu.all_reduce' in this region form is not supported (yet)
func.func @main() {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %r = gpu.all_reduce %tx { ^bb(%a: index, %b: index):
      %d = arith.subi %a, %b : index
      gpu.yield %d : index
    } : (index) -> (index)
    gpu.terminator
  }
  return
}

// -----

// CHECK: invalid.mlir:49:3: error: importing upstream MLIR: host code cannot access device memory (copy it with gpu.memcpy, or gpu.host_register host memory)
func.func @main() {
  %c0 = arith.constant 0 : index
  %d = gpu.alloc() : memref<4xf32>
  %x = memref.load %d[%c0] : memref<4xf32>
  return
}

// -----

// CHECK: invalid.mlir:{{[0-9]+}}:7: error: importing upstream MLIR: 'cf.assert' inside an scf region of a kernel is not supported (yet)
func.func @main() {
  %c1 = arith.constant 1 : index
  %true = arith.constant true
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    scf.if %true {
      cf.assert %true, "never"
    }
    gpu.terminator
  }
  return
}

// -----

// CHECK: invalid.mlir:{{[0-9]+}}:3: error: importing upstream MLIR: 'func.call' of @again inside itself (recursion)
func.func @again(%m: memref<4xf32>) {
  func.call @again(%m) : (memref<4xf32>) -> ()
  return
}
func.func @main() {
  %m = memref.alloc() : memref<4xf32>
  func.call @again(%m) : (memref<4xf32>) -> ()
  return
}

// -----

// A subview is a view of its source's memory, known to the function that makes it only:
// printing it, or passing it to a kernel, is refused; so is a subview that drops dimensions.
// CHECK: invalid.mlir:{{[0-9]+}}:3: error: importing upstream MLIR: 'func.call' of a memref.subview is not supported (yet): a subview may be loaded from, stored to, asked its dims, cast, copied (memref.copy) and viewed again
func.func private @printMemrefF32(memref<*xf32>)
func.func @main() {
  %a = memref.alloc() : memref<4x4xf32>
  %v = memref.subview %a[1, 1][2, 2][1, 1] : memref<4x4xf32> to memref<2x2xf32, strided<[4, 1], offset: 5>>
  %u = memref.cast %v : memref<2x2xf32, strided<[4, 1], offset: 5>> to memref<*xf32>
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}

// -----

// CHECK: invalid.mlir:{{[0-9]+}}:5: error: importing upstream MLIR: 'gpu.launch_func' of a memref.subview is not supported (yet): a subview may be loaded from, stored to, asked its dims, cast, copied (memref.copy) and viewed again
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%a: memref<2xf32, strided<[1], offset: 1>>) kernel {
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %d = gpu.alloc() : memref<4xf32>
    %v = memref.subview %d[1][2][1] : memref<4xf32> to memref<2xf32, strided<[1], offset: 1>>
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%v : memref<2xf32, strided<[1], offset: 1>>)
    return
  }
}

// -----

// CHECK: invalid.mlir:{{[0-9]+}}:3: error: importing upstream MLIR: 'memref.subview' that drops dimensions is not supported (yet)
func.func @main() {
  %a = memref.alloc() : memref<4x4xf32>
  %v = memref.subview %a[1, 0][1, 4][1, 1] : memref<4x4xf32> to memref<4xf32, strided<[1], offset: 4>>
  return
}

// -----

// CHECK: invalid.mlir:{{[0-9]+}}:3: error: importing upstream MLIR: host code cannot access device memory (copy it with gpu.memcpy, or gpu.host_register host memory)
func.func @main() {
  %d = gpu.alloc() : memref<4xf32>
  %h = memref.alloc() : memref<4xf32>
  memref.copy %d, %h : memref<4xf32> to memref<4xf32>
  return
}

// -----

// CHECK: invalid.mlir:{{[0-9]+}}:3: error: importing upstream MLIR: 'memref.copy' copies memref<4xf32> to memref<5xf32>: the shapes differ
func.func @main() {
  %a = memref.alloc() : memref<4xf32>
  %b = memref.alloc() : memref<5xf32>
  memref.copy %a, %b : memref<4xf32> to memref<5xf32>
  return
}

// -----

// CHECK: invalid.mlir:{{[0-9]+}}:7: error: importing upstream MLIR: 'gpu.subgroup_reduce' with a cluster stride is not supported (yet)
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%out: memref<32xi32>) kernel {
      %tx = gpu.thread_id x
      %i = arith.index_cast %tx : index to i32
      %r = gpu.subgroup_reduce add %i cluster(size = 4, stride = 2) : (i32) -> i32
      memref.store %r, %out[%tx] : memref<32xi32>
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %d = gpu.alloc() : memref<32xi32>
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%d : memref<32xi32>)
    return
  }
}

// -----

// A gpu.shuffle whose width is a constant outside 1 to 32 lanes: gpuir's verifier refuses the
// imported shuffle, at the upstream op.
// CHECK: invalid.mlir:175:5: error: 'gpu.shuffle' expects a width of 1 to 32 lanes, found the constant 0
func.func @main() {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %t = arith.index_cast %tx : index to i32
    %one = arith.constant 1 : i32
    %zero = arith.constant 0 : i32
    %r, %ok = gpu.shuffle xor %t, %one, %zero : i32
    gpu.terminator
  }
  return
}

// -----

// CHECK: invalid.mlir:190:7: error: 'gpu.shuffle' expects a width of 1 to 32 lanes, found the constant 64
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k() kernel {
      %v = arith.constant 1.0 : f32
      %one = arith.constant 1 : i32
      %wide = arith.constant 64 : i32
      %r, %ok = gpu.shuffle down %v, %one, %wide : f32
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }
}
