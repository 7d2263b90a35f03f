// A matrix kernel launched with 40 work-items: warp 1 has only the 8 lanes of items 32..39.
// Here only items below 32 reach the matrix ops (an scf.if on the thread id), so the launch is
// correct; the cpu provider, whose machine code runs matrix ops for whole warps only, runs a
// launch with a partial warp under interp, and so prints what interp prints. The kernel copies
// the 16x16 tile a[i][j] = i - j through an accumulator fragment: c[i][j] = i - j.
// RUN: gpu-run %s --provider interp | filecheck %s
// RUN: gpu-run %s --provider cpu | filecheck %s
// A native executable runs machine code alone: it is refused for matrix ops.
// RUN: not gpu-run %s --emit-executable %t.exe 2>&1 | filecheck %s --check-prefix=NATIVE
// NATIVE: gpu-run: error: cannot make a native executable of {{.*}}mma-partial-warp.mlir: matrix ops (gpu.mma_*) run for whole warps only, and a partial warp needs interp

// CHECK:      rank = 1 offset = 0 sizes = [4] strides = [1] data =
// CHECK-NEXT: [0,  15,  -15,  7]

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @copy(%a: memref<16x16xf16>, %c: memref<16x16xf16>) kernel {
      %c0 = arith.constant 0 : index
      %c32 = arith.constant 32 : index
      %tx = gpu.thread_id x
      %whole = arith.cmpi ult, %tx, %c32 : index
      scf.if %whole {
        %f = gpu.subgroup_mma_load_matrix %a[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf16> -> !gpu.mma_matrix<16x16xf16, "COp">
        gpu.subgroup_mma_store_matrix %f, %c[%c0, %c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xf16, "COp">, memref<16x16xf16>
      }
      gpu.return
    }
  }

  func.func private @printMemrefF32(memref<*xf32>)

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c9 = arith.constant 9 : index
    %c15 = arith.constant 15 : index
    %c16 = arith.constant 16 : index
    %c40 = arith.constant 40 : index
    %ha = memref.alloc() : memref<16x16xf16>
    scf.for %i = %c0 to %c16 step %c1 {
      scf.for %j = %c0 to %c16 step %c1 {
        %ii = arith.index_cast %i : index to i32
        %ji = arith.index_cast %j : index to i32
        %d = arith.subi %ii, %ji : i32
        %f = arith.sitofp %d : i32 to f16
        memref.store %f, %ha[%i, %j] : memref<16x16xf16>
      }
    }
    %a = gpu.alloc() : memref<16x16xf16>
    %c = gpu.alloc() : memref<16x16xf16>
    gpu.memcpy %a, %ha : memref<16x16xf16>, memref<16x16xf16>
    gpu.launch_func @kernels::@copy blocks in (%c1, %c1, %c1) threads in (%c40, %c1, %c1) args(%a : memref<16x16xf16>, %c : memref<16x16xf16>)
    %hc = memref.alloc() : memref<16x16xf16>
    gpu.memcpy %hc, %c : memref<16x16xf16>, memref<16x16xf16>
    // c[0][0], c[15][0], c[0][15], c[9][2]
    %out = memref.alloc() : memref<4xf32>
    %v0 = memref.load %hc[%c0, %c0] : memref<16x16xf16>
    %v1 = memref.load %hc[%c15, %c0] : memref<16x16xf16>
    %v2 = memref.load %hc[%c0, %c15] : memref<16x16xf16>
    %v3 = memref.load %hc[%c9, %c2] : memref<16x16xf16>
    %w0 = arith.extf %v0 : f16 to f32
    %w1 = arith.extf %v1 : f16 to f32
    %w2 = arith.extf %v2 : f16 to f32
    %w3 = arith.extf %v3 : f16 to f32
    memref.store %w0, %out[%c0] : memref<4xf32>
    memref.store %w1, %out[%c1] : memref<4xf32>
    memref.store %w2, %out[%c2] : memref<4xf32>
    memref.store %w3, %out[%c3] : memref<4xf32>
    %u = memref.cast %out : memref<4xf32> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    return
  }
}
