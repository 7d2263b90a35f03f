// gpu.subgroup_reduce: add, maxsi (uniform) and minnumf over a warp, and add over clusters of
// 4 lanes, by 40 work-items: warp 0 has lanes 0..31, warp 1 only the 8 lanes of items 32..39
// (the lanes that do not exist take no part). Each item reduces its own id. The maxsi one
// spells its type `(i32) -> (i32)`, as MLIR also may.
// RUN: gpu-run %s --provider interp | filecheck %s
// RUN: gpu-run %s --provider cpu | filecheck %s
// RUN: gpu-run %s --provider cpu --check | filecheck %s

// Sums: 0 + … + 31 = 496, 32 + … + 39 = 284.
// CHECK:      Unranked Memref base@ = {{0x[0-9a-f]+}} rank = 1 offset = 0 sizes = [40] strides = [1] data =
// CHECK-NEXT: [496,  496,  496,  496,  496,  496,  496,  496,  496,  496,  496,  496,  496,  496,  496,  496,  496,  496,  496,  496,  496,  496,  496,  496,  496,  496,  496,  496,  496,  496,  496,  496,  284,  284,  284,  284,  284,  284,  284,  284]
// CHECK:      [31,  31,  31,  31,  31,  31,  31,  31,  31,  31,  31,  31,  31,  31,  31,  31,  31,  31,  31,  31,  31,  31,  31,  31,  31,  31,  31,  31,  31,  31,  31,  31,  39,  39,  39,  39,  39,  39,  39,  39]
// Clusters of 4: 4k + … + 4k + 3 = 16k + 6.
// CHECK:      [6,  6,  6,  6,  22,  22,  22,  22,  38,  38,  38,  38,  54,  54,  54,  54,  70,  70,  70,  70,  86,  86,  86,  86,  102,  102,  102,  102,  118,  118,  118,  118,  134,  134,  134,  134,  150,  150,  150,  150]
// CHECK:      [0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  32,  32,  32,  32,  32,  32,  32,  32]

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // 40 work-items: warp 0 has 32 lanes, warp 1 the 8 lanes 32..39. Each item reduces its
    // id over its warp (add, maxsi), and over clusters of 4 lanes (add).
    gpu.func @reduce(%sums: memref<40xi32>, %maxes: memref<40xi32>, %fours: memref<40xi32>, %f: memref<40xf32>) kernel {
      %tx = gpu.thread_id x
      %i = arith.index_cast %tx : index to i32
      %sum = gpu.subgroup_reduce add %i : (i32) -> i32
      %max = gpu.subgroup_reduce maxsi %i uniform : (i32) -> (i32)
      %four = gpu.subgroup_reduce add %i cluster(size = 4) : (i32) -> i32
      %x = arith.sitofp %i : i32 to f32
      %fm = gpu.subgroup_reduce minnumf %x : (f32) -> f32
      memref.store %sum, %sums[%tx] : memref<40xi32>
      memref.store %max, %maxes[%tx] : memref<40xi32>
      memref.store %four, %fours[%tx] : memref<40xi32>
      memref.store %fm, %f[%tx] : memref<40xf32>
      gpu.return
    }
  }
  func.func private @printMemrefI32(memref<*xi32>)
  func.func private @printMemrefF32(memref<*xf32>)
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c40 = arith.constant 40 : index
    %s = gpu.alloc() : memref<40xi32>
    %m = gpu.alloc() : memref<40xi32>
    %q = gpu.alloc() : memref<40xi32>
    %f = gpu.alloc() : memref<40xf32>
    gpu.launch_func @kernels::@reduce blocks in (%c1, %c1, %c1) threads in (%c40, %c1, %c1) args(%s : memref<40xi32>, %m : memref<40xi32>, %q : memref<40xi32>, %f : memref<40xf32>)
    %hs = memref.alloc() : memref<40xi32>
    %hm = memref.alloc() : memref<40xi32>
    %hq = memref.alloc() : memref<40xi32>
    %hf = memref.alloc() : memref<40xf32>
    gpu.memcpy %hs, %s : memref<40xi32>, memref<40xi32>
    gpu.memcpy %hm, %m : memref<40xi32>, memref<40xi32>
    gpu.memcpy %hq, %q : memref<40xi32>, memref<40xi32>
    gpu.memcpy %hf, %f : memref<40xf32>, memref<40xf32>
    %us = memref.cast %hs : memref<40xi32> to memref<*xi32>
    %um = memref.cast %hm : memref<40xi32> to memref<*xi32>
    %uq = memref.cast %hq : memref<40xi32> to memref<*xi32>
    %uf = memref.cast %hf : memref<40xf32> to memref<*xf32>
    call @printMemrefI32(%us) : (memref<*xi32>) -> ()
    call @printMemrefI32(%um) : (memref<*xi32>) -> ()
    call @printMemrefI32(%uq) : (memref<*xi32>) -> ()
    call @printMemrefF32(%uf) : (memref<*xf32>) -> ()
    return
  }
}
