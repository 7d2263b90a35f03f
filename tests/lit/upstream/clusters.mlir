// Launches with MLIR's `clusters` of 1x1x1 blocks, which gpuir runs as launches without them
// (a cluster is a block): gpu.cluster_id is the block id, gpu.cluster_dim the grid size,
// gpu.cluster_block_id 0 and gpu.cluster_dim_blocks 1; in the region form, the cluster ids and
// sizes are those. Each of 4 blocks of 2 threads stores
// 1000 cluster_id + 100 cluster_dim + 10 cluster_block_id + cluster_dim_blocks at 2 b + t:
// 1000 b + 401 (launch_func); the region form stores 1000 cluster id + 100 cluster size + t.
// RUN: gpu-run %s --provider interp | filecheck %s
// RUN: gpu-run %s --provider cpu | filecheck %s

// CHECK:      rank = 1 offset = 0 sizes = [8] strides = [1] data =
// CHECK-NEXT: [401,  401,  1401,  1401,  2401,  2401,  3401,  3401]
// CHECK:      rank = 1 offset = 0 sizes = [8] strides = [1] data =
// CHECK-NEXT: [100,  101,  1100,  1101,  2100,  2101,  3100,  3101]

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%out: memref<8xi32>) kernel {
      %c2 = arith.constant 2 : index
      %c10 = arith.constant 10 : index
      %c100 = arith.constant 100 : index
      %c1000 = arith.constant 1000 : index
      %b = gpu.block_id x
      %t = gpu.thread_id x
      %cid = gpu.cluster_id x
      %cdim = gpu.cluster_dim x
      %cbid = gpu.cluster_block_id x
      %cblocks = gpu.cluster_dim_blocks x
      %v0 = arith.muli %cid, %c1000 : index
      %v1 = arith.muli %cdim, %c100 : index
      %v2 = arith.muli %cbid, %c10 : index
      %v3 = arith.addi %v0, %v1 : index
      %v4 = arith.addi %v3, %v2 : index
      %v = arith.addi %v4, %cblocks : index
      %vi = arith.index_cast %v : index to i32
      %base = arith.muli %b, %c2 : index
      %i = arith.addi %base, %t : index
      memref.store %vi, %out[%i] : memref<8xi32>
      gpu.return
    }
  }
  func.func private @printMemrefI32(memref<*xi32>)
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %m = memref.alloc() : memref<8xi32>
    %h = memref.cast %m : memref<8xi32> to memref<*xi32>
    gpu.host_register %h : memref<*xi32>
    gpu.launch_func @kernels::@k clusters in (%c1, %c1, %c1) blocks in (%c4, %c1, %c1) threads in (%c2, %c1, %c1) args(%m : memref<8xi32>)
    call @printMemrefI32(%h) : (memref<*xi32>) -> ()
    gpu.launch clusters(%cx, %cy, %cz) in (%sx = %c1, %sy = %c1, %sz = %c1)
               blocks(%bx, %by, %bz) in (%gx = %c4, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%ex = %c2, %ey = %c1, %ez = %c1) {
      %c100 = arith.constant 100 : index
      %c1000 = arith.constant 1000 : index
      %v0 = arith.muli %cx, %c1000 : index
      %v1 = arith.muli %sx, %c100 : index
      %v2 = arith.addi %v0, %v1 : index
      %v = arith.addi %v2, %tx : index
      %vi = arith.index_cast %v : index to i32
      %base = arith.muli %bx, %c2 : index
      %i = arith.addi %base, %tx : index
      memref.store %vi, %m[%i] : memref<8xi32>
      gpu.terminator
    }
    call @printMemrefI32(%h) : (memref<*xi32>) -> ()
    return
  }
}
