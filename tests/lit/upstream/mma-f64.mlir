// An f64 matmul on tensor cores (m8n8k4, one warp): D = A · B + C, and E = -(A · B + 0.5)
// with B read from its transpose and E stored transposed (a constant accumulator, negatef).
// A[i][k] = i - 2k + 0.5 (8x4), B[k][j] = (k j) mod 3 - 1 (4x8), C[i][j] = (i - j) / 8 (8x8):
// every product and sum is exact in f64. The CHECK lines are numpy's:
//   i, k = np.meshgrid(range(8), range(4), indexing="ij"); A = i - 2 * k + 0.5
//   k, j = np.meshgrid(range(4), range(8), indexing="ij"); B = (k * j) % 3 - 1
//   i, j = np.meshgrid(range(8), range(8), indexing="ij"); C = (i - j) / 8
//   D = A @ B + C;  E = (-(A @ B + 0.5)).T
// RUN: gpu-run %s --provider interp | filecheck %s
// RUN: gpu-run %s --provider cpu | filecheck %s
// RUN: gpu-run %s --provider cpu --check | filecheck %s
// RUN: gpu-opt %s -t 'ptx{sm=80}' | filecheck %s --check-prefix=PTX

// PTX: wmma.load.a.sync.aligned.row.m8n8k4.f64
// PTX: wmma.load.b.sync.aligned.row.m8n8k4.f64
// PTX: wmma.load.c.sync.aligned.row.m8n8k4.f64
// PTX: wmma.mma.sync.aligned.row.row.m8n8k4.f64.f64.f64.f64
// PTX: wmma.store.d.sync.aligned.row.m8n8k4.f64
// PTX: wmma.load.b.sync.aligned.col.m8n8k4.f64
// PTX: wmma.mma.sync.aligned.row.col.m8n8k4.f64.f64.f64.f64
// PTX: wmma.store.d.sync.aligned.col.m8n8k4.f64

// CHECK: Unranked Memref base@ = {{0x[0-9a-f]+}} rank = 2 offset = 0 sizes = [8, 8] strides = [8, 1] data =
// CHECK-NEXT: {{\[\[}}10,   1.375,   3.25,   9.625,   1,   2.875,   9.25,   0.625], 
// CHECK-NEXT:  [6.125,   0.5,   2.375,   5.75,   0.125,   2,   5.375,   -0.25], 
// CHECK-NEXT:  [2.25,   -0.375,   1.5,   1.875,   -0.75,   1.125,   1.5,   -1.125], 
// CHECK-NEXT:  [-1.625,   -1.25,   0.625,   -2,   -1.625,   0.25,   -2.375,   -2], 
// CHECK-NEXT:  [-5.5,   -2.125,   -0.25,   -5.875,   -2.5,   -0.625,   -6.25,   -2.875], 
// CHECK-NEXT:  [-9.375,   -3,   -1.125,   -9.75,   -3.375,   -1.5,   -10.125,   -3.75], 
// CHECK-NEXT:  [-13.25,   -3.875,   -2,   -13.625,   -4.25,   -2.375,   -14,   -4.625], 
// CHECK-NEXT:  [-17.125,   -4.75,   -2.875,   -17.5,   -5.125,   -3.25,   -17.875,   -5.5]]
// CHECK: Unranked Memref base@ = {{0x[0-9a-f]+}} rank = 2 offset = 0 sizes = [8, 8] strides = [8, 1] data =
// CHECK-NEXT: {{\[\[}}-10.5,   -6.5,   -2.5,   1.5,   5.5,   9.5,   13.5,   17.5], 
// CHECK-NEXT:  [-2,   -1,   -0,   1,   2,   3,   4,   5], 
// CHECK-NEXT:  [-4,   -3,   -2,   -1,   -0,   1,   2,   3], 
// CHECK-NEXT:  [-10.5,   -6.5,   -2.5,   1.5,   5.5,   9.5,   13.5,   17.5], 
// CHECK-NEXT:  [-2,   -1,   -0,   1,   2,   3,   4,   5], 
// CHECK-NEXT:  [-4,   -3,   -2,   -1,   -0,   1,   2,   3], 
// CHECK-NEXT:  [-10.5,   -6.5,   -2.5,   1.5,   5.5,   9.5,   13.5,   17.5], 
// CHECK-NEXT:  [-2,   -1,   -0,   1,   2,   3,   4,   5]]

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @product(%a: memref<8x4xf64>, %b: memref<4x8xf64>, %c: memref<8x8xf64>) kernel {
      %c0 = arith.constant 0 : index
      %fa = gpu.subgroup_mma_load_matrix %a[%c0, %c0] {leadDimension = 4 : index} : memref<8x4xf64> -> !gpu.mma_matrix<8x4xf64, "AOp">
      %fb = gpu.subgroup_mma_load_matrix %b[%c0, %c0] {leadDimension = 8 : index} : memref<4x8xf64> -> !gpu.mma_matrix<4x8xf64, "BOp">
      %fc = gpu.subgroup_mma_load_matrix %c[%c0, %c0] {leadDimension = 8 : index} : memref<8x8xf64> -> !gpu.mma_matrix<8x8xf64, "COp">
      %fd = gpu.subgroup_mma_compute %fa, %fb, %fc : !gpu.mma_matrix<8x4xf64, "AOp">, !gpu.mma_matrix<4x8xf64, "BOp"> -> !gpu.mma_matrix<8x8xf64, "COp">
      gpu.subgroup_mma_store_matrix %fd, %c[%c0, %c0] {leadDimension = 8 : index} : !gpu.mma_matrix<8x8xf64, "COp">, memref<8x8xf64>
      gpu.return
    }
    gpu.func @transposed(%a: memref<8x4xf64>, %bt: memref<8x4xf64>, %e: memref<8x8xf64>) kernel {
      %c0 = arith.constant 0 : index
      %half = arith.constant 0.5 : f64
      %fa = gpu.subgroup_mma_load_matrix %a[%c0, %c0] {leadDimension = 4 : index} : memref<8x4xf64> -> !gpu.mma_matrix<8x4xf64, "AOp">
      %fb = gpu.subgroup_mma_load_matrix %bt[%c0, %c0] {leadDimension = 4 : index, transpose} : memref<8x4xf64> -> !gpu.mma_matrix<4x8xf64, "BOp">
      %fc = gpu.subgroup_mma_constant_matrix %half : !gpu.mma_matrix<8x8xf64, "COp">
      %fd = gpu.subgroup_mma_compute %fa, %fb, %fc {b_transpose} : !gpu.mma_matrix<8x4xf64, "AOp">, !gpu.mma_matrix<4x8xf64, "BOp"> -> !gpu.mma_matrix<8x8xf64, "COp">
      %fe = gpu.subgroup_mma_elementwise negatef %fd : (!gpu.mma_matrix<8x8xf64, "COp">) -> !gpu.mma_matrix<8x8xf64, "COp">
      gpu.subgroup_mma_store_matrix %fe, %e[%c0, %c0] {leadDimension = 8 : index, transpose} : !gpu.mma_matrix<8x8xf64, "COp">, memref<8x8xf64>
      gpu.return
    }
  }
  func.func private @printMemrefF64(memref<*xf64>)
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c32 = arith.constant 32 : index
    %half = arith.constant 0.5 : f64
    %one = arith.constant 1.0 : f64
    %eighth = arith.constant 0.125 : f64
    %ha = memref.alloc() : memref<8x4xf64>
    %hb = memref.alloc() : memref<4x8xf64>
    %hbt = memref.alloc() : memref<8x4xf64>
    %hc = memref.alloc() : memref<8x8xf64>
    scf.for %i = %c0 to %c8 step %c1 {
      scf.for %k = %c0 to %c4 step %c1 {
        %k2 = arith.muli %k, %c2 : index
        %d = arith.subi %i, %k2 : index
        %di = arith.index_cast %d : index to i64
        %df = arith.sitofp %di : i64 to f64
        %x = arith.addf %df, %half : f64
        memref.store %x, %ha[%i, %k] : memref<8x4xf64>
        %kj = arith.muli %k, %i : index
        %r = arith.remui %kj, %c3 : index
        %ri = arith.index_cast %r : index to i64
        %rf = arith.sitofp %ri : i64 to f64
        %y = arith.subf %rf, %one : f64
        memref.store %y, %hb[%k, %i] : memref<4x8xf64>
        memref.store %y, %hbt[%i, %k] : memref<8x4xf64>
      }
      scf.for %j = %c0 to %c8 step %c1 {
        %d = arith.subi %i, %j : index
        %di = arith.index_cast %d : index to i64
        %df = arith.sitofp %di : i64 to f64
        %z = arith.mulf %df, %eighth : f64
        memref.store %z, %hc[%i, %j] : memref<8x8xf64>
      }
    }
    %a = gpu.alloc() : memref<8x4xf64>
    %b = gpu.alloc() : memref<4x8xf64>
    %bt = gpu.alloc() : memref<8x4xf64>
    %c = gpu.alloc() : memref<8x8xf64>
    %e = gpu.alloc() : memref<8x8xf64>
    gpu.memcpy %a, %ha : memref<8x4xf64>, memref<8x4xf64>
    gpu.memcpy %b, %hb : memref<4x8xf64>, memref<4x8xf64>
    gpu.memcpy %bt, %hbt : memref<8x4xf64>, memref<8x4xf64>
    gpu.memcpy %c, %hc : memref<8x8xf64>, memref<8x8xf64>
    gpu.launch_func @kernels::@product blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%a : memref<8x4xf64>, %b : memref<4x8xf64>, %c : memref<8x8xf64>)
    gpu.launch_func @kernels::@transposed blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%a : memref<8x4xf64>, %bt : memref<8x4xf64>, %e : memref<8x8xf64>)
    %hd = memref.alloc() : memref<8x8xf64>
    gpu.memcpy %hd, %c : memref<8x8xf64>, memref<8x8xf64>
    %ud = memref.cast %hd : memref<8x8xf64> to memref<*xf64>
    call @printMemrefF64(%ud) : (memref<*xf64>) -> ()
    %he = memref.alloc() : memref<8x8xf64>
    gpu.memcpy %he, %e : memref<8x8xf64>, memref<8x8xf64>
    %ue = memref.cast %he : memref<8x8xf64> to memref<*xf64>
    call @printMemrefF64(%ue) : (memref<*xf64>) -> ()
    return
  }
}
