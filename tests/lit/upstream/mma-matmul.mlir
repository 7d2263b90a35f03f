// A 16x16x16 f16 matmul on tensor cores (one warp): D = A · B with an f32 accumulator, and
// F = 2 (A · B + 0.5) - 0.5 with an f16 accumulator (a constant, then addf and subf), stored
// transposed. A[i][k] = (i + 2k) mod 7 - 3 and B[k][j] = (k - j + 16) mod 5 - 2 are small
// integers, so every value here is exact in f16. The CHECK lines are numpy's, computed in f32:
//   i, j = np.meshgrid(range(16), range(16), indexing="ij")
//   A = ((i + 2 * j) % 7 - 3); B = ((i - j + 16) % 5 - 2)
//   D = A @ B;  F = (2 * D + 0.5).T  (the f16 result, read back as f32 on the host)
// RUN: gpu-run %s --provider interp | filecheck %s
// RUN: gpu-run %s --provider cpu | filecheck %s
// RUN: gpu-run %s --provider cpu --check | filecheck %s
// RUN: gpu-opt %s -t ptx | filecheck %s --check-prefix=PTX

// PTX: wmma.load.a.sync.aligned.row.m16n16k16.f16
// PTX: wmma.mma.sync.aligned.row.row.m16n16k16.f32.f32
// PTX: wmma.store.d.sync.aligned.row.m16n16k16.f32
// PTX: wmma.mma.sync.aligned.row.row.m16n16k16.f16.f16
// PTX: wmma.store.d.sync.aligned.col.m16n16k16.f16

// CHECK: Unranked Memref base@ = {{0x[0-9a-f]+}} rank = 2 offset = 0 sizes = [16, 16] strides = [16, 1] data =
// CHECK-NEXT: {{\[\[}}15,   -1,   -2,   -3,   -9,   15,   -1,   -2,   -3,   -9,   15,   -1,   -2,   -3,   -9,   15], 
// CHECK-NEXT:  [7,   4,   -14,   -2,   5,   7,   4,   -14,   -2,   5,   7,   4,   -14,   -2,   5,   7], 
// CHECK-NEXT:  [-8,   2,   2,   -8,   12,   -8,   2,   2,   -8,   12,   -8,   2,   2,   -8,   12,   -8], 
// CHECK-NEXT:  [-2,   -14,   4,   7,   5,   -2,   -14,   4,   7,   5,   -2,   -14,   4,   7,   5,   -2], 
// CHECK-NEXT:  [-3,   -2,   -1,   15,   -9,   -3,   -2,   -1,   15,   -9,   -3,   -2,   -1,   15,   -9,   -3], 
// CHECK-NEXT:  [-11,   10,   1,   2,   -2,   -11,   10,   1,   2,   -2,   -11,   10,   1,   2,   -2,   -11], 
// CHECK-NEXT:  [2,   1,   10,   -11,   -2,   2,   1,   10,   -11,   -2,   2,   1,   10,   -11,   -2,   2], 
// CHECK-NEXT:  [15,   -1,   -2,   -3,   -9,   15,   -1,   -2,   -3,   -9,   15,   -1,   -2,   -3,   -9,   15], 
// CHECK-NEXT:  [7,   4,   -14,   -2,   5,   7,   4,   -14,   -2,   5,   7,   4,   -14,   -2,   5,   7], 
// CHECK-NEXT:  [-8,   2,   2,   -8,   12,   -8,   2,   2,   -8,   12,   -8,   2,   2,   -8,   12,   -8], 
// CHECK-NEXT:  [-2,   -14,   4,   7,   5,   -2,   -14,   4,   7,   5,   -2,   -14,   4,   7,   5,   -2], 
// CHECK-NEXT:  [-3,   -2,   -1,   15,   -9,   -3,   -2,   -1,   15,   -9,   -3,   -2,   -1,   15,   -9,   -3], 
// CHECK-NEXT:  [-11,   10,   1,   2,   -2,   -11,   10,   1,   2,   -2,   -11,   10,   1,   2,   -2,   -11], 
// CHECK-NEXT:  [2,   1,   10,   -11,   -2,   2,   1,   10,   -11,   -2,   2,   1,   10,   -11,   -2,   2], 
// CHECK-NEXT:  [15,   -1,   -2,   -3,   -9,   15,   -1,   -2,   -3,   -9,   15,   -1,   -2,   -3,   -9,   15], 
// CHECK-NEXT:  [7,   4,   -14,   -2,   5,   7,   4,   -14,   -2,   5,   7,   4,   -14,   -2,   5,   7]]
// CHECK: Unranked Memref base@ = {{0x[0-9a-f]+}} rank = 2 offset = 0 sizes = [16, 16] strides = [16, 1] data =
// CHECK-NEXT: {{\[\[}}30.5,   14.5,   -15.5,   -3.5,   -5.5,   -21.5,   4.5,   30.5,   14.5,   -15.5,   -3.5,   -5.5,   -21.5,   4.5,   30.5,   14.5], 
// CHECK-NEXT:  [-1.5,   8.5,   4.5,   -27.5,   -3.5,   20.5,   2.5,   -1.5,   8.5,   4.5,   -27.5,   -3.5,   20.5,   2.5,   -1.5,   8.5], 
// CHECK-NEXT:  [-3.5,   -27.5,   4.5,   8.5,   -1.5,   2.5,   20.5,   -3.5,   -27.5,   4.5,   8.5,   -1.5,   2.5,   20.5,   -3.5,   -27.5], 
// CHECK-NEXT:  [-5.5,   -3.5,   -15.5,   14.5,   30.5,   4.5,   -21.5,   -5.5,   -3.5,   -15.5,   14.5,   30.5,   4.5,   -21.5,   -5.5,   -3.5], 
// CHECK-NEXT:  [-17.5,   10.5,   24.5,   10.5,   -17.5,   -3.5,   -3.5,   -17.5,   10.5,   24.5,   10.5,   -17.5,   -3.5,   -3.5,   -17.5,   10.5], 
// CHECK-NEXT:  [30.5,   14.5,   -15.5,   -3.5,   -5.5,   -21.5,   4.5,   30.5,   14.5,   -15.5,   -3.5,   -5.5,   -21.5,   4.5,   30.5,   14.5], 
// CHECK-NEXT:  [-1.5,   8.5,   4.5,   -27.5,   -3.5,   20.5,   2.5,   -1.5,   8.5,   4.5,   -27.5,   -3.5,   20.5,   2.5,   -1.5,   8.5], 
// CHECK-NEXT:  [-3.5,   -27.5,   4.5,   8.5,   -1.5,   2.5,   20.5,   -3.5,   -27.5,   4.5,   8.5,   -1.5,   2.5,   20.5,   -3.5,   -27.5], 
// CHECK-NEXT:  [-5.5,   -3.5,   -15.5,   14.5,   30.5,   4.5,   -21.5,   -5.5,   -3.5,   -15.5,   14.5,   30.5,   4.5,   -21.5,   -5.5,   -3.5], 
// CHECK-NEXT:  [-17.5,   10.5,   24.5,   10.5,   -17.5,   -3.5,   -3.5,   -17.5,   10.5,   24.5,   10.5,   -17.5,   -3.5,   -3.5,   -17.5,   10.5], 
// CHECK-NEXT:  [30.5,   14.5,   -15.5,   -3.5,   -5.5,   -21.5,   4.5,   30.5,   14.5,   -15.5,   -3.5,   -5.5,   -21.5,   4.5,   30.5,   14.5], 
// CHECK-NEXT:  [-1.5,   8.5,   4.5,   -27.5,   -3.5,   20.5,   2.5,   -1.5,   8.5,   4.5,   -27.5,   -3.5,   20.5,   2.5,   -1.5,   8.5], 
// CHECK-NEXT:  [-3.5,   -27.5,   4.5,   8.5,   -1.5,   2.5,   20.5,   -3.5,   -27.5,   4.5,   8.5,   -1.5,   2.5,   20.5,   -3.5,   -27.5], 
// CHECK-NEXT:  [-5.5,   -3.5,   -15.5,   14.5,   30.5,   4.5,   -21.5,   -5.5,   -3.5,   -15.5,   14.5,   30.5,   4.5,   -21.5,   -5.5,   -3.5], 
// CHECK-NEXT:  [-17.5,   10.5,   24.5,   10.5,   -17.5,   -3.5,   -3.5,   -17.5,   10.5,   24.5,   10.5,   -17.5,   -3.5,   -3.5,   -17.5,   10.5], 
// CHECK-NEXT:  [30.5,   14.5,   -15.5,   -3.5,   -5.5,   -21.5,   4.5,   30.5,   14.5,   -15.5,   -3.5,   -5.5,   -21.5,   4.5,   30.5,   14.5]]

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @f32acc(%a: memref<16x16xf16>, %b: memref<16x16xf16>, %c: memref<16x16xf32>) kernel {
      %c0 = arith.constant 0 : index
      %zero = arith.constant 0.0 : f32
      %fa = gpu.subgroup_mma_load_matrix %a[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf16> -> !gpu.mma_matrix<16x16xf16, "AOp">
      %fb = gpu.subgroup_mma_load_matrix %b[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf16> -> !gpu.mma_matrix<16x16xf16, "BOp">
      %fc = gpu.subgroup_mma_constant_matrix %zero : !gpu.mma_matrix<16x16xf32, "COp">
      %fd = gpu.subgroup_mma_compute %fa, %fb, %fc : !gpu.mma_matrix<16x16xf16, "AOp">, !gpu.mma_matrix<16x16xf16, "BOp"> -> !gpu.mma_matrix<16x16xf32, "COp">
      gpu.subgroup_mma_store_matrix %fd, %c[%c0, %c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xf32, "COp">, memref<16x16xf32>
      gpu.return
    }
    gpu.func @f16acc(%a: memref<16x16xf16>, %b: memref<16x16xf16>, %c: memref<16x16xf16>) kernel {
      %c0 = arith.constant 0 : index
      %half = arith.constant 0.5 : f16
      %fa = gpu.subgroup_mma_load_matrix %a[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf16> -> !gpu.mma_matrix<16x16xf16, "AOp">
      %fb = gpu.subgroup_mma_load_matrix %b[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf16> -> !gpu.mma_matrix<16x16xf16, "BOp">
      %fc = gpu.subgroup_mma_constant_matrix %half : !gpu.mma_matrix<16x16xf16, "COp">
      %fd = gpu.subgroup_mma_compute %fa, %fb, %fc : !gpu.mma_matrix<16x16xf16, "AOp">, !gpu.mma_matrix<16x16xf16, "BOp"> -> !gpu.mma_matrix<16x16xf16, "COp">
      %fe = gpu.subgroup_mma_elementwise addf %fd, %fd : (!gpu.mma_matrix<16x16xf16, "COp">, !gpu.mma_matrix<16x16xf16, "COp">) -> !gpu.mma_matrix<16x16xf16, "COp">
      %ff = gpu.subgroup_mma_elementwise subf %fe, %fc : (!gpu.mma_matrix<16x16xf16, "COp">, !gpu.mma_matrix<16x16xf16, "COp">) -> !gpu.mma_matrix<16x16xf16, "COp">
      gpu.subgroup_mma_store_matrix %ff, %c[%c0, %c0] {leadDimension = 16 : index, transpose} : !gpu.mma_matrix<16x16xf16, "COp">, memref<16x16xf16>
      gpu.return
    }
  }
  func.func private @printMemrefF32(memref<*xf32>)
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c5 = arith.constant 5 : index
    %c7 = arith.constant 7 : index
    %c16 = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    %three = arith.constant 3 : i32
    %two = arith.constant 2 : i32
    %ha = memref.alloc() : memref<16x16xf16>
    %hb = memref.alloc() : memref<16x16xf16>
    scf.for %i = %c0 to %c16 step %c1 {
      scf.for %j = %c0 to %c16 step %c1 {
        %j2 = arith.muli %j, %c2 : index
        %s = arith.addi %i, %j2 : index
        %r = arith.remui %s, %c7 : index
        %ri = arith.index_cast %r : index to i32
        %v = arith.subi %ri, %three : i32
        %f = arith.sitofp %v : i32 to f16
        memref.store %f, %ha[%i, %j] : memref<16x16xf16>
        %d = arith.subi %i, %j : index
        %d16 = arith.addi %d, %c16 : index
        %q = arith.remui %d16, %c5 : index
        %qi = arith.index_cast %q : index to i32
        %w = arith.subi %qi, %two : i32
        %g = arith.sitofp %w : i32 to f16
        memref.store %g, %hb[%i, %j] : memref<16x16xf16>
      }
    }
    %a = gpu.alloc() : memref<16x16xf16>
    %b = gpu.alloc() : memref<16x16xf16>
    %c = gpu.alloc() : memref<16x16xf32>
    %h = gpu.alloc() : memref<16x16xf16>
    gpu.memcpy %a, %ha : memref<16x16xf16>, memref<16x16xf16>
    gpu.memcpy %b, %hb : memref<16x16xf16>, memref<16x16xf16>
    gpu.launch_func @kernels::@f32acc blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%a : memref<16x16xf16>, %b : memref<16x16xf16>, %c : memref<16x16xf32>)
    gpu.launch_func @kernels::@f16acc blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%a : memref<16x16xf16>, %b : memref<16x16xf16>, %h : memref<16x16xf16>)
    %hc = memref.alloc() : memref<16x16xf32>
    gpu.memcpy %hc, %c : memref<16x16xf32>, memref<16x16xf32>
    %uc = memref.cast %hc : memref<16x16xf32> to memref<*xf32>
    call @printMemrefF32(%uc) : (memref<*xf32>) -> ()
    %hh = memref.alloc() : memref<16x16xf16>
    gpu.memcpy %hh, %h : memref<16x16xf16>, memref<16x16xf16>
    %wide = memref.alloc() : memref<16x16xf32>
    scf.for %i = %c0 to %c16 step %c1 {
      scf.for %j = %c0 to %c16 step %c1 {
        %x = memref.load %hh[%i, %j] : memref<16x16xf16>
        %y = arith.extf %x : f16 to f32
        memref.store %y, %wide[%i, %j] : memref<16x16xf32>
      }
    }
    %uw = memref.cast %wide : memref<16x16xf32> to memref<*xf32>
    call @printMemrefF32(%uw) : (memref<*xf32>) -> ()
    return
  }
}
