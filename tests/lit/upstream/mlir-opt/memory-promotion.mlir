// Memory promotion: --test-gpu-memory-promotion gives the gpu.func parameter marked
// {gpu.test_promote_workgroup} a workgroup attribution of its type, copies the parameter into
// it before the body (loops over the memref's elements strided by the block's size, in each
// dimension), puts a gpu.barrier after that copy and one before the copy back, and makes the
// body use the workgroup memory. The pass's copy loops are affine.apply on gpu.thread_id and
// gpu.block_dim, which --lower-affine makes arith. The kernel rotates the rows of a 5x4 matrix
// by one and squares them, through its own barrier (each thread reads, then writes after all
// have read).
// Expected output: numpy, from the NUMPY lines (Inputs/numpy_expect.py prints it, and the
// CHECK lines are what it printed).
// RUN: mlir-opt-22 %s "--pass-pipeline=builtin.module(gpu.module(gpu.func(test-gpu-memory-promotion)),lower-affine,canonicalize)" > %t.mlir
// RUN: filecheck %s --check-prefix=LOWERED < %t.mlir
// RUN: python %S/Inputs/numpy_expect.py %s | filecheck %s
// RUN: gpu-run %t.mlir --provider interp | filecheck %s
// RUN: gpu-run %t.mlir --provider cpu | filecheck %s

// LOWERED:      gpu.func @rotate(%[[M:.*]]: memref<5x4xf32> {gpu.test_promote_workgroup}) workgroup(%[[W:.*]] : memref<5x4xf32, #gpu.address_space<workgroup>>) kernel {
// LOWERED:        scf.for
// LOWERED:          memref.load %[[M]]
// LOWERED:          memref.store %{{.*}}, %[[W]]
// LOWERED:        gpu.barrier
// LOWERED:        memref.load %[[W]]
// LOWERED:        gpu.barrier
// LOWERED:        memref.store %{{.*}}, %[[W]]
// LOWERED:        gpu.barrier
// LOWERED:        scf.for
// LOWERED:          memref.load %[[W]]
// LOWERED:          memref.store %{{.*}}, %[[M]]

// NUMPY: m = np.arange(20, dtype=np.float32).reshape(5, 4)
// NUMPY: show(np.roll(m, -1, axis=0) ** 2)  # row i is row i + 1 (mod 5), squared

// CHECK:      rank = 2 offset = 0 sizes = [5, 4] strides = [4, 1] data =
// CHECK-NEXT: {{\[\[}}16,   25,   36,   49],
// CHECK-NEXT:  [64,   81,   100,   121],
// CHECK-NEXT:  [144,   169,   196,   225],
// CHECK-NEXT:  [256,   289,   324,   361],
// CHECK-NEXT:  [0,   1,   4,   9]]

module attributes {gpu.container_module} {
  func.func private @printMemrefF32(memref<*xf32>)
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c5 = arith.constant 5 : index
    %a = memref.alloc() : memref<5x4xf32>
    scf.for %i = %c0 to %c5 step %c1 {
      scf.for %j = %c0 to %c4 step %c1 {
        %k = arith.muli %i, %c4 : index
        %l = arith.addi %k, %j : index
        %li = arith.index_cast %l : index to i32
        %f = arith.sitofp %li : i32 to f32
        memref.store %f, %a[%i, %j] : memref<5x4xf32>
      }
    }
    %h = memref.cast %a : memref<5x4xf32> to memref<*xf32>
    gpu.host_register %h : memref<*xf32>
    gpu.launch_func @kernels::@rotate blocks in (%c1, %c1, %c1) threads in (%c4, %c5, %c1)
        args(%a : memref<5x4xf32>)
    call @printMemrefF32(%h) : (memref<*xf32>) -> ()
    return
  }
  gpu.module @kernels {
    gpu.func @rotate(%m: memref<5x4xf32> {gpu.test_promote_workgroup}) kernel {
      %c1 = arith.constant 1 : index
      %c5 = arith.constant 5 : index
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %below = arith.addi %ty, %c1 : index
      %row = arith.remui %below, %c5 : index
      %v = memref.load %m[%row, %tx] : memref<5x4xf32>
      %w = arith.mulf %v, %v : f32
      gpu.barrier
      memref.store %w, %m[%ty, %tx] : memref<5x4xf32>
      gpu.return
    }
  }
}
