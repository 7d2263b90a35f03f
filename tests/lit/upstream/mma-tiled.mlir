// A tiled 32x32x32 f16 matmul on tensor cores: C = A · B with an f32 accumulator. Work-group g
// computes the tiles of rows 16g …, its warp w the tile of columns 16w …: an scf.for over k
// (0, 16) carries the accumulator fragment, loading the tiles of A and B at k with lead 32.
// A and B hold small integers, exact in f16, and so is every sum. Expected output: numpy, from
// the NUMPY lines (mlir-opt/Inputs/numpy_expect.py prints it, and the CHECK lines are what it
// printed: `python numpy_expect.py --update` writes them).
// RUN: python %S/mlir-opt/Inputs/numpy_expect.py %s | filecheck %s
// RUN: gpu-run %s --provider interp | filecheck %s
// RUN: gpu-run %s --provider cpu | filecheck %s
// RUN: gpu-run %s --provider cpu --check | filecheck %s

// NUMPY: i, j = np.indices((32, 32))
// NUMPY: a = ((i + 3 * j) % 5 - 2).astype(np.float32)
// NUMPY: b = ((2 * i + j) % 7 - 3).astype(np.float32)
// NUMPY: show(a @ b)

// CHECK:      rank = 2 offset = 0 sizes = [32, 32] strides = [32, 1] data =
// CHECK-NEXT: {{\[\[}}-2,   -3,   -4,   -5,   8,   7,   -1,   -2,   -3,   -4,   -5,   8,   7,   -1,   -2,   -3,   -4,   -5,   8,   7,   -1,   -2,   -3,   -4,   -5,   8,   7,   -1,   -2,   -3,   -4,   -5],
// CHECK-NEXT:  [-2,   -1,   7,   8,   -5,   -4,   -3,   -2,   -1,   7,   8,   -5,   -4,   -3,   -2,   -1,   7,   8,   -5,   -4,   -3,   -2,   -1,   7,   8,   -5,   -4,   -3,   -2,   -1,   7,   8],
// CHECK-NEXT:  [-2,   -4,   8,   6,   -3,   -5,   0,   -2,   -4,   8,   6,   -3,   -5,   0,   -2,   -4,   8,   6,   -3,   -5,   0,   -2,   -4,   8,   6,   -3,   -5,   0,   -2,   -4,   8,   6],
// CHECK-NEXT:  [8,   8,   -6,   -6,   -6,   -6,   8,   8,   8,   -6,   -6,   -6,   -6,   8,   8,   8,   -6,   -6,   -6,   -6,   8,   8,   8,   -6,   -6,   -6,   -6,   8,   8,   8,   -6,   -6],
// CHECK-NEXT:  [-2,   0,   -5,   -3,   6,   8,   -4,   -2,   0,   -5,   -3,   6,   8,   -4,   -2,   0,   -5,   -3,   6,   8,   -4,   -2,   0,   -5,   -3,   6,   8,   -4,   -2,   0,   -5,   -3],
// CHECK-NEXT:  [-2,   -3,   -4,   -5,   8,   7,   -1,   -2,   -3,   -4,   -5,   8,   7,   -1,   -2,   -3,   -4,   -5,   8,   7,   -1,   -2,   -3,   -4,   -5,   8,   7,   -1,   -2,   -3,   -4,   -5],
// CHECK-NEXT:  [-2,   -1,   7,   8,   -5,   -4,   -3,   -2,   -1,   7,   8,   -5,   -4,   -3,   -2,   -1,   7,   8,   -5,   -4,   -3,   -2,   -1,   7,   8,   -5,   -4,   -3,   -2,   -1,   7,   8],
// CHECK-NEXT:  [-2,   -4,   8,   6,   -3,   -5,   0,   -2,   -4,   8,   6,   -3,   -5,   0,   -2,   -4,   8,   6,   -3,   -5,   0,   -2,   -4,   8,   6,   -3,   -5,   0,   -2,   -4,   8,   6],
// CHECK-NEXT:  [8,   8,   -6,   -6,   -6,   -6,   8,   8,   8,   -6,   -6,   -6,   -6,   8,   8,   8,   -6,   -6,   -6,   -6,   8,   8,   8,   -6,   -6,   -6,   -6,   8,   8,   8,   -6,   -6],
// CHECK-NEXT:  [-2,   0,   -5,   -3,   6,   8,   -4,   -2,   0,   -5,   -3,   6,   8,   -4,   -2,   0,   -5,   -3,   6,   8,   -4,   -2,   0,   -5,   -3,   6,   8,   -4,   -2,   0,   -5,   -3],
// CHECK-NEXT:  [-2,   -3,   -4,   -5,   8,   7,   -1,   -2,   -3,   -4,   -5,   8,   7,   -1,   -2,   -3,   -4,   -5,   8,   7,   -1,   -2,   -3,   -4,   -5,   8,   7,   -1,   -2,   -3,   -4,   -5],
// CHECK-NEXT:  [-2,   -1,   7,   8,   -5,   -4,   -3,   -2,   -1,   7,   8,   -5,   -4,   -3,   -2,   -1,   7,   8,   -5,   -4,   -3,   -2,   -1,   7,   8,   -5,   -4,   -3,   -2,   -1,   7,   8],
// CHECK-NEXT:  [-2,   -4,   8,   6,   -3,   -5,   0,   -2,   -4,   8,   6,   -3,   -5,   0,   -2,   -4,   8,   6,   -3,   -5,   0,   -2,   -4,   8,   6,   -3,   -5,   0,   -2,   -4,   8,   6],
// CHECK-NEXT:  [8,   8,   -6,   -6,   -6,   -6,   8,   8,   8,   -6,   -6,   -6,   -6,   8,   8,   8,   -6,   -6,   -6,   -6,   8,   8,   8,   -6,   -6,   -6,   -6,   8,   8,   8,   -6,   -6],
// CHECK-NEXT:  [-2,   0,   -5,   -3,   6,   8,   -4,   -2,   0,   -5,   -3,   6,   8,   -4,   -2,   0,   -5,   -3,   6,   8,   -4,   -2,   0,   -5,   -3,   6,   8,   -4,   -2,   0,   -5,   -3],
// CHECK-NEXT:  [-2,   -3,   -4,   -5,   8,   7,   -1,   -2,   -3,   -4,   -5,   8,   7,   -1,   -2,   -3,   -4,   -5,   8,   7,   -1,   -2,   -3,   -4,   -5,   8,   7,   -1,   -2,   -3,   -4,   -5],
// CHECK-NEXT:  [-2,   -1,   7,   8,   -5,   -4,   -3,   -2,   -1,   7,   8,   -5,   -4,   -3,   -2,   -1,   7,   8,   -5,   -4,   -3,   -2,   -1,   7,   8,   -5,   -4,   -3,   -2,   -1,   7,   8],
// CHECK-NEXT:  [-2,   -4,   8,   6,   -3,   -5,   0,   -2,   -4,   8,   6,   -3,   -5,   0,   -2,   -4,   8,   6,   -3,   -5,   0,   -2,   -4,   8,   6,   -3,   -5,   0,   -2,   -4,   8,   6],
// CHECK-NEXT:  [8,   8,   -6,   -6,   -6,   -6,   8,   8,   8,   -6,   -6,   -6,   -6,   8,   8,   8,   -6,   -6,   -6,   -6,   8,   8,   8,   -6,   -6,   -6,   -6,   8,   8,   8,   -6,   -6],
// CHECK-NEXT:  [-2,   0,   -5,   -3,   6,   8,   -4,   -2,   0,   -5,   -3,   6,   8,   -4,   -2,   0,   -5,   -3,   6,   8,   -4,   -2,   0,   -5,   -3,   6,   8,   -4,   -2,   0,   -5,   -3],
// CHECK-NEXT:  [-2,   -3,   -4,   -5,   8,   7,   -1,   -2,   -3,   -4,   -5,   8,   7,   -1,   -2,   -3,   -4,   -5,   8,   7,   -1,   -2,   -3,   -4,   -5,   8,   7,   -1,   -2,   -3,   -4,   -5],
// CHECK-NEXT:  [-2,   -1,   7,   8,   -5,   -4,   -3,   -2,   -1,   7,   8,   -5,   -4,   -3,   -2,   -1,   7,   8,   -5,   -4,   -3,   -2,   -1,   7,   8,   -5,   -4,   -3,   -2,   -1,   7,   8],
// CHECK-NEXT:  [-2,   -4,   8,   6,   -3,   -5,   0,   -2,   -4,   8,   6,   -3,   -5,   0,   -2,   -4,   8,   6,   -3,   -5,   0,   -2,   -4,   8,   6,   -3,   -5,   0,   -2,   -4,   8,   6],
// CHECK-NEXT:  [8,   8,   -6,   -6,   -6,   -6,   8,   8,   8,   -6,   -6,   -6,   -6,   8,   8,   8,   -6,   -6,   -6,   -6,   8,   8,   8,   -6,   -6,   -6,   -6,   8,   8,   8,   -6,   -6],
// CHECK-NEXT:  [-2,   0,   -5,   -3,   6,   8,   -4,   -2,   0,   -5,   -3,   6,   8,   -4,   -2,   0,   -5,   -3,   6,   8,   -4,   -2,   0,   -5,   -3,   6,   8,   -4,   -2,   0,   -5,   -3],
// CHECK-NEXT:  [-2,   -3,   -4,   -5,   8,   7,   -1,   -2,   -3,   -4,   -5,   8,   7,   -1,   -2,   -3,   -4,   -5,   8,   7,   -1,   -2,   -3,   -4,   -5,   8,   7,   -1,   -2,   -3,   -4,   -5],
// CHECK-NEXT:  [-2,   -1,   7,   8,   -5,   -4,   -3,   -2,   -1,   7,   8,   -5,   -4,   -3,   -2,   -1,   7,   8,   -5,   -4,   -3,   -2,   -1,   7,   8,   -5,   -4,   -3,   -2,   -1,   7,   8],
// CHECK-NEXT:  [-2,   -4,   8,   6,   -3,   -5,   0,   -2,   -4,   8,   6,   -3,   -5,   0,   -2,   -4,   8,   6,   -3,   -5,   0,   -2,   -4,   8,   6,   -3,   -5,   0,   -2,   -4,   8,   6],
// CHECK-NEXT:  [8,   8,   -6,   -6,   -6,   -6,   8,   8,   8,   -6,   -6,   -6,   -6,   8,   8,   8,   -6,   -6,   -6,   -6,   8,   8,   8,   -6,   -6,   -6,   -6,   8,   8,   8,   -6,   -6],
// CHECK-NEXT:  [-2,   0,   -5,   -3,   6,   8,   -4,   -2,   0,   -5,   -3,   6,   8,   -4,   -2,   0,   -5,   -3,   6,   8,   -4,   -2,   0,   -5,   -3,   6,   8,   -4,   -2,   0,   -5,   -3],
// CHECK-NEXT:  [-2,   -3,   -4,   -5,   8,   7,   -1,   -2,   -3,   -4,   -5,   8,   7,   -1,   -2,   -3,   -4,   -5,   8,   7,   -1,   -2,   -3,   -4,   -5,   8,   7,   -1,   -2,   -3,   -4,   -5],
// CHECK-NEXT:  [-2,   -1,   7,   8,   -5,   -4,   -3,   -2,   -1,   7,   8,   -5,   -4,   -3,   -2,   -1,   7,   8,   -5,   -4,   -3,   -2,   -1,   7,   8,   -5,   -4,   -3,   -2,   -1,   7,   8]]

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @matmul(%a: memref<32x32xf16>, %b: memref<32x32xf16>, %c: memref<32x32xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c16 = arith.constant 16 : index
      %c32 = arith.constant 32 : index
      %zero = arith.constant 0.0 : f32
      %g = gpu.block_id x
      %t = gpu.thread_id x
      %w = arith.divui %t, %c32 : index
      %row = arith.muli %g, %c16 : index
      %col = arith.muli %w, %c16 : index
      %init = gpu.subgroup_mma_constant_matrix %zero : !gpu.mma_matrix<16x16xf32, "COp">
      %acc = scf.for %k = %c0 to %c32 step %c16 iter_args(%sum = %init) -> (!gpu.mma_matrix<16x16xf32, "COp">) {
        %fa = gpu.subgroup_mma_load_matrix %a[%row, %k] {leadDimension = 32 : index} : memref<32x32xf16> -> !gpu.mma_matrix<16x16xf16, "AOp">
        %fb = gpu.subgroup_mma_load_matrix %b[%k, %col] {leadDimension = 32 : index} : memref<32x32xf16> -> !gpu.mma_matrix<16x16xf16, "BOp">
        %next = gpu.subgroup_mma_compute %fa, %fb, %sum : !gpu.mma_matrix<16x16xf16, "AOp">, !gpu.mma_matrix<16x16xf16, "BOp"> -> !gpu.mma_matrix<16x16xf32, "COp">
        scf.yield %next : !gpu.mma_matrix<16x16xf32, "COp">
      }
      gpu.subgroup_mma_store_matrix %acc, %c[%row, %col] {leadDimension = 32 : index} : !gpu.mma_matrix<16x16xf32, "COp">, memref<32x32xf32>
      gpu.return
    }
  }
  func.func private @printMemrefF32(memref<*xf32>)
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c5 = arith.constant 5 : index
    %c7 = arith.constant 7 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %ha = memref.alloc() : memref<32x32xf16>
    %hb = memref.alloc() : memref<32x32xf16>
    scf.for %i = %c0 to %c32 step %c1 {
      scf.for %j = %c0 to %c32 step %c1 {
        %j3 = arith.muli %j, %c3 : index
        %s = arith.addi %i, %j3 : index
        %r = arith.remui %s, %c5 : index
        %r2 = arith.subi %r, %c2 : index
        %ri = arith.index_cast %r2 : index to i32
        %f = arith.sitofp %ri : i32 to f16
        memref.store %f, %ha[%i, %j] : memref<32x32xf16>
        %i2 = arith.muli %i, %c2 : index
        %t = arith.addi %i2, %j : index
        %q = arith.remui %t, %c7 : index
        %q3 = arith.subi %q, %c3 : index
        %qi = arith.index_cast %q3 : index to i32
        %g = arith.sitofp %qi : i32 to f16
        memref.store %g, %hb[%i, %j] : memref<32x32xf16>
      }
    }
    %a = gpu.alloc() : memref<32x32xf16>
    %b = gpu.alloc() : memref<32x32xf16>
    %c = gpu.alloc() : memref<32x32xf32>
    gpu.memcpy %a, %ha : memref<32x32xf16>, memref<32x32xf16>
    gpu.memcpy %b, %hb : memref<32x32xf16>, memref<32x32xf16>
    gpu.launch_func @kernels::@matmul blocks in (%c2, %c1, %c1) threads in (%c64, %c1, %c1) args(%a : memref<32x32xf16>, %b : memref<32x32xf16>, %c : memref<32x32xf32>)
    %hc = memref.alloc() : memref<32x32xf32>
    gpu.memcpy %hc, %c : memref<32x32xf32>, memref<32x32xf32>
    %uc = memref.cast %hc : memref<32x32xf32> to memref<*xf32>
    call @printMemrefF32(%uc) : (memref<*xf32>) -> ()
    return
  }
}
