// A gpu.launch region outlined by mlir-opt-22's --gpu-launch-sink-index-computations and
// --gpu-kernel-outlining, which write the launch's constant sizes on the gpu.func as
// known_block_size = array<i32: 4, 2, 1> and known_grid_size = array<i32: 2, 1, 1>. The import
// folds gpu.block_dim and gpu.grid_dim to those constants and checks them at the launch_func.
// Each thread stores 1000 gx + 100 bx + 10 by + tx + 4 ty + 8 bid at its element
// tx + 4 ty + 8 bid. Expected output: numpy, from the NUMPY lines (Inputs/numpy_expect.py
// prints it, and the CHECK lines are what it printed).
// RUN: mlir-opt-22 %s --gpu-launch-sink-index-computations --gpu-kernel-outlining > %t.mlir
// RUN: python %S/Inputs/numpy_expect.py %s | filecheck %s
// RUN: gpu-run %t.mlir --provider interp | filecheck %s
// RUN: gpu-run %t.mlir --provider cpu | filecheck %s
// RUN: gpu-opt %t.mlir | filecheck %s --check-prefix=IMPORTED

// NUMPY: tx, ty, bid = np.indices((4, 2, 2))  # each thread's ids
// NUMPY: out = np.zeros(16, dtype=np.int32)
// NUMPY: out[tx + 4 * ty + 8 * bid] = 1000 * 2 + 100 * 4 + 10 * 2 + tx + 4 * ty + 8 * bid
// NUMPY: show(out)

// CHECK:      rank = 1 offset = 0 sizes = [16] strides = [1] data =
// CHECK-NEXT: [2420,  2421,  2422,  2423,  2424,  2425,  2426,  2427,  2428,  2429,  2430,  2431,  2432,  2433,  2434,  2435]

// IMPORTED: gpu.launch @main_kernel {{.*}} {gpu.known_sizes = {grid = array<i64: 2, 1, 1>, block = array<i64: 4, 2, 1>}}

module attributes {gpu.container_module} {
  func.func private @printMemrefI32(memref<*xi32>)
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c10 = arith.constant 10 : index
    %c100 = arith.constant 100 : index
    %c1000 = arith.constant 1000 : index
    %m = memref.alloc() : memref<16xi32>
    %h = memref.cast %m : memref<16xi32> to memref<*xi32>
    gpu.host_register %h : memref<*xi32>
    gpu.launch blocks(%b, %by0, %bz0) in (%gx = %c2, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c2, %sz = %c1) {
      %bdx = gpu.block_dim x
      %bdy = gpu.block_dim y
      %gdx = gpu.grid_dim x
      %row = arith.muli %ty, %c4 : index
      %blk = arith.muli %b, %c8 : index
      %i0 = arith.addi %tx, %row : index
      %i = arith.addi %i0, %blk : index
      %g = arith.muli %gdx, %c1000 : index
      %x = arith.muli %bdx, %c100 : index
      %y = arith.muli %bdy, %c10 : index
      %s0 = arith.addi %g, %x : index
      %s1 = arith.addi %s0, %y : index
      %v = arith.addi %s1, %i : index
      %vi = arith.index_cast %v : index to i32
      memref.store %vi, %m[%i] : memref<16xi32>
      gpu.terminator
    }
    call @printMemrefI32(%h) : (memref<*xi32>) -> ()
    return
  }
}
