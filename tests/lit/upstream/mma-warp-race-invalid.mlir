// Two warps store different tiles to the same memory, with no barrier between them: warp 0
// (work-items 0-31) stores zeros, warp 1 (work-items 32-63) ones. A matrix store is its warp's
// access (interp's race check records it for the warp), so the race is reported between the
// warps, at the first byte whose values differ (the high byte of f16 1.0, 0x3c00).
// RUN: not gpu-run %s --provider interp 2>&1 | filecheck %s
// RUN: not gpu-run %s --provider cpu --check 2>&1 | filecheck %s

// CHECK: mma-warp-race-invalid.mlir:[[#STORE:]]:7: error: race on global memory: warp (group 0, work-items 32-63) writes byte 1 of a 512-byte global allocation (by 'gpu.alloc.block' at {{.*}}mma-warp-race-invalid.mlir:[[#ALLOC:]]:5), which warp (group 0, work-items 0-31) wrote a different value to ('gpu.mma_store' at {{.*}}mma-warp-race-invalid.mlir:[[#STORE]]:7); no barrier between them
// CHECK-NOT: Unranked Memref

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @fill(%c: memref<16x16xf16>) kernel {
      %c0 = arith.constant 0 : index
      %tid = gpu.thread_id x
      %c32 = arith.constant 32 : index
      %warp = arith.divui %tid, %c32 : index
      %wi = arith.index_cast %warp : index to i32
      %w = arith.sitofp %wi : i32 to f16
      %f = gpu.subgroup_mma_constant_matrix %w : !gpu.mma_matrix<16x16xf16, "COp">
      gpu.subgroup_mma_store_matrix %f, %c[%c0, %c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xf16, "COp">, memref<16x16xf16>
      gpu.return
    }
  }

  func.func private @printMemrefF32(memref<*xf32>)

  func.func @main() {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %c = gpu.alloc() : memref<16x16xf16>
    gpu.launch_func @kernels::@fill blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%c : memref<16x16xf16>)
    %out = memref.alloc() : memref<1xf32>
    %u = memref.cast %out : memref<1xf32> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    return
  }
}
