// A kernel with MLIR's known_block_size and known_grid_size: the import makes its gpu.block_dim
// and gpu.grid_dim (and the thread and block ids derived from them) constants, and each launch
// checks that its sizes are the known ones: a launch of other sizes is an error at the launch,
// on every provider, naming both. @main takes the launch's block and grid x sizes. Each of the
// 3x1x1 blocks of 4x2x1 threads stores 3000 + 100 tx + 10 ty + bx at its place
// bx * 8 + ty * 4 + tx (numpy: 3000 + tx*100 + ty*10 + b over meshgrid(3, 2, 4, "ij")).
// RUN: gpu-run %s 4 3 --provider interp | filecheck %s
// RUN: gpu-run %s 4 3 --provider cpu | filecheck %s
// RUN: not gpu-run %s 2 3 --provider interp 2>&1 | filecheck %s --check-prefix=BLOCK -DP=interp -DN=2
// RUN: not gpu-run %s 8 3 --provider cpu 2>&1 | filecheck %s --check-prefix=BLOCK -DP=cpu -DN=8
// RUN: not gpu-run %s 4 1 --provider interp 2>&1 | filecheck %s --check-prefix=GRID -DP=interp
// RUN: not gpu-run %s 4 1 --provider cpu 2>&1 | filecheck %s --check-prefix=GRID -DP=cpu
// RUN: gpu-opt %s | filecheck %s --check-prefix=IMPORTED

// CHECK:      rank = 1 offset = 0 sizes = [24] strides = [1] data =
// CHECK-NEXT: [3000,  3100,  3200,  3300,  3010,  3110,  3210,  3310,  3001,  3101,  3201,  3301,  3011,  3111,  3211,  3311,  3002,  3102,  3202,  3302,  3012,  3112,  3212,  3312]

// BLOCK:      known-sizes.mlir:69:5: error: [[P]]: @ids has known_block_size 4x2x1, the launch's block size is [[N]]x2x1
// BLOCK-NEXT:     gpu.launch_func @kernels::@ids
// BLOCK-NEXT: {{^    \^$}}
// GRID:       known-sizes.mlir:69:5: error: [[P]]: @ids has known_grid_size 3x1x1, the launch's grid size is 1x1x1

// IMPORTED:      func.func @ids(
// IMPORTED-NEXT:   %[[GX:.*]] = arith.constant 3 : index
// IMPORTED-NEXT:   %[[BX:.*]] = arith.constant 4 : index
// IMPORTED-NEXT:   %[[ONE:.*]] = arith.constant 1 : index
// IMPORTED-NEXT:   %[[BY:.*]] = arith.constant 2 : index
// IMPORTED:        arith.remui %group, %[[GX]] : index
// IMPORTED:        arith.remui %item, %[[BX]] : index
// IMPORTED:        %per_block = arith.muli %[[BX]], %[[BY]] : index
// IMPORTED:      func.func @main(
// IMPORTED:        gpu.launch @ids {{.*}} {gpu.known_sizes = {grid = array<i64: 3, 1, 1>, block = array<i64: 4, 2, 1>}}

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @ids(%out: memref<24xi32>) kernel attributes {known_block_size = array<i32: 4, 2, 1>, known_grid_size = array<i32: 3, 1, 1>} {
      %bid = gpu.block_id x
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %bx = gpu.block_dim x
      %by = gpu.block_dim y
      %gx = gpu.grid_dim x
      %per_block = arith.muli %bx, %by : index
      %base = arith.muli %bid, %per_block : index
      %row = arith.muli %ty, %bx : index
      %in_block = arith.addi %row, %tx : index
      %i = arith.addi %base, %in_block : index
      %c10 = arith.constant 10 : index
      %c100 = arith.constant 100 : index
      %c1000 = arith.constant 1000 : index
      %x = arith.muli %tx, %c100 : index
      %y = arith.muli %ty, %c10 : index
      %xy = arith.addi %x, %y : index
      %v = arith.addi %xy, %bid : index
      %g = arith.muli %gx, %c1000 : index
      %w = arith.addi %v, %g : index
      %wi = arith.index_cast %w : index to i32
      memref.store %wi, %out[%i] : memref<24xi32>
      gpu.return
    }
  }
  func.func private @printMemrefI32(memref<*xi32>)
  func.func @main(%block_x: index, %grid_x: index) {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %m = memref.alloc() : memref<24xi32>
    %h = memref.cast %m : memref<24xi32> to memref<*xi32>
    gpu.host_register %h : memref<*xi32>
    gpu.launch_func @kernels::@ids blocks in (%grid_x, %c1, %c1) threads in (%block_x, %c2, %c1) args(%m : memref<24xi32>)
    call @printMemrefI32(%h) : (memref<*xi32>) -> ()
    return
  }
}
