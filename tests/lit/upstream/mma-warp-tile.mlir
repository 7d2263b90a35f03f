// A warp reads a tile and writes it back in place through the matrix ops: a = aᵀ · I, with `a`
// loaded transposed (lane 2 reads a[0][1] … a[7][1], lane 0 then writes a[0][1]). A matrix
// load or store is the warp's access, made by its lanes together (interp's race check records
// it for the warp, not for each lane), so the lanes of one warp never race through them.
// a[i][j] = 16 i + j, so aᵀ[i][j] = 16 j + i.
// RUN: gpu-run %s --provider interp | filecheck %s
// RUN: gpu-run %s --provider cpu | filecheck %s

// CHECK: [0,  16,  1,  241,  255]

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @transpose(%a: memref<16x16xf16>, %eye: memref<16x16xf16>, %zero: memref<16x16xf16>) kernel {
      %c0 = arith.constant 0 : index
      %fa = gpu.subgroup_mma_load_matrix %a[%c0, %c0] {leadDimension = 16 : index, transpose} : memref<16x16xf16> -> !gpu.mma_matrix<16x16xf16, "AOp">
      %fb = gpu.subgroup_mma_load_matrix %eye[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf16> -> !gpu.mma_matrix<16x16xf16, "BOp">
      %fc = gpu.subgroup_mma_load_matrix %zero[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf16> -> !gpu.mma_matrix<16x16xf16, "COp">
      %fd = gpu.subgroup_mma_compute %fa, %fb, %fc : !gpu.mma_matrix<16x16xf16, "AOp">, !gpu.mma_matrix<16x16xf16, "BOp"> -> !gpu.mma_matrix<16x16xf16, "COp">
      gpu.subgroup_mma_store_matrix %fd, %a[%c0, %c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xf16, "COp">, memref<16x16xf16>
      gpu.return
    }
  }

  func.func private @printMemrefF32(memref<*xf32>)

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c15 = arith.constant 15 : index
    %c16 = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    %f0 = arith.constant 0.0 : f16
    %f1 = arith.constant 1.0 : f16
    %ha = memref.alloc() : memref<16x16xf16>
    %heye = memref.alloc() : memref<16x16xf16>
    %hzero = memref.alloc() : memref<16x16xf16>
    scf.for %i = %c0 to %c16 step %c1 {
      scf.for %j = %c0 to %c16 step %c1 {
        %row = arith.muli %i, %c16 : index
        %k = arith.addi %row, %j : index
        %ki = arith.index_cast %k : index to i32
        %v = arith.sitofp %ki : i32 to f16
        memref.store %v, %ha[%i, %j] : memref<16x16xf16>
        %diagonal = arith.cmpi eq, %i, %j : index
        %e = arith.select %diagonal, %f1, %f0 : f16
        memref.store %e, %heye[%i, %j] : memref<16x16xf16>
        memref.store %f0, %hzero[%i, %j] : memref<16x16xf16>
      }
    }
    %a = gpu.alloc() : memref<16x16xf16>
    %eye = gpu.alloc() : memref<16x16xf16>
    %zero = gpu.alloc() : memref<16x16xf16>
    gpu.memcpy %a, %ha : memref<16x16xf16>, memref<16x16xf16>
    gpu.memcpy %eye, %heye : memref<16x16xf16>, memref<16x16xf16>
    gpu.memcpy %zero, %hzero : memref<16x16xf16>, memref<16x16xf16>
    gpu.launch_func @kernels::@transpose blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%a : memref<16x16xf16>, %eye : memref<16x16xf16>, %zero : memref<16x16xf16>)
    gpu.memcpy %ha, %a : memref<16x16xf16>, memref<16x16xf16>
    // a[0][0], a[0][1], a[1][0], a[1][15], a[15][15]
    %out = memref.alloc() : memref<5xf32>
    %v0 = memref.load %ha[%c0, %c0] : memref<16x16xf16>
    %v1 = memref.load %ha[%c0, %c1] : memref<16x16xf16>
    %v2 = memref.load %ha[%c1, %c0] : memref<16x16xf16>
    %v3 = memref.load %ha[%c1, %c15] : memref<16x16xf16>
    %v4 = memref.load %ha[%c15, %c15] : memref<16x16xf16>
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %w0 = arith.extf %v0 : f16 to f32
    %w1 = arith.extf %v1 : f16 to f32
    %w2 = arith.extf %v2 : f16 to f32
    %w3 = arith.extf %v3 : f16 to f32
    %w4 = arith.extf %v4 : f16 to f32
    memref.store %w0, %out[%c0] : memref<5xf32>
    memref.store %w1, %out[%c1] : memref<5xf32>
    memref.store %w2, %out[%c2] : memref<5xf32>
    memref.store %w3, %out[%c3] : memref<5xf32>
    memref.store %w4, %out[%c4] : memref<5xf32>
    %u = memref.cast %out : memref<5xf32> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    return
  }
}
