// Elementwise ops on f16 accumulator fragments (one warp): D = min(max(A · B, B), A) / 3, each
// op on every element (mulf, maxf, minf, divf), where A and B are small integers, exact in f16,
// with zeros of both signs (a negative times +0 is -0: maxf and minf order -0 below +0, as
// arith.maximumf and minimumf do), and the division by 3 rounds to f16. Expected output: numpy's
// f16 arithmetic, from the NUMPY lines (mlir-opt/Inputs/numpy_expect.py prints it, and the CHECK
// lines are what it printed: `python numpy_expect.py --update` writes them).
// RUN: python %S/mlir-opt/Inputs/numpy_expect.py %s | filecheck %s
// RUN: gpu-run %s --provider interp | filecheck %s
// RUN: gpu-run %s --provider cpu | filecheck %s

// NUMPY: i, j = np.indices((16, 16))
// NUMPY: a = ((i + 2 * j) % 9 - 4).astype(np.float16)
// NUMPY: b = ((3 * i + j) % 7 - 3).astype(np.float16)
// NUMPY: p = a * b
// NUMPY: m = np.where((p == 0) & (b == 0), np.where(np.signbit(p), b, p), np.maximum(p, b))
// NUMPY: n = np.where((m == 0) & (a == 0), np.where(np.signbit(m), m, a), np.minimum(m, a))
// NUMPY: show((n / np.float16(3)).astype(np.float32))

// CHECK:      rank = 2 offset = 0 sizes = [16, 16] strides = [16, 1] data =
// CHECK-NEXT: {{\[\[}}-1.33301,   -0.666504,   -0,   0,   1.33301,   -1,   -0.333252,   -1,   -0.666504,   -1.33301,   -0.666504,   0,   0.666504,   1.33301,   -1,   -0.333252],
// CHECK-NEXT:  [-1,   -0.333252,   0.333252,   1,   -1.33301,   -0.666504,   -0,   0,   1.33301,   -1,   -0.333252,   -1,   -0.666504,   -1.33301,   -0.666504,   0],
// CHECK-NEXT:  [-0.666504,   -0,   -0.666504,   -0.333252,   -1,   -0.333252,   0.333252,   1,   -1.33301,   -0.666504,   -0,   0,   1.33301,   -1,   -0.333252,   -1],
// CHECK-NEXT:  [-0.333252,   0,   1,   -1.33301,   -0.666504,   -0,   -0.666504,   -0.333252,   -1,   -0.333252,   0.333252,   1,   -1.33301,   -0.666504,   -0,   0],
// CHECK-NEXT:  [0,   0.666504,   -1,   -1,   -0.333252,   0,   1,   -1.33301,   -0.666504,   -0,   -0.666504,   -0.333252,   -1,   -0.333252,   0.333252,   1],
// CHECK-NEXT:  [-0.666504,   -0.333252,   -1.33301,   -0.666504,   0,   0.666504,   -1,   -1,   -0.333252,   0,   1,   -1.33301,   -0.666504,   -0,   -0.666504,   -0.333252],
// CHECK-NEXT:  [0.666504,   1.33301,   -1,   -0.333252,   -0.666504,   -0.333252,   -1.33301,   -0.666504,   0,   0.666504,   -1,   -1,   -0.333252,   0,   1,   -1.33301],
// CHECK-NEXT:  [-1,   -1.33301,   -0.666504,   0,   0.666504,   1.33301,   -1,   -0.333252,   -0.666504,   -0.333252,   -1.33301,   -0.666504,   0,   0.666504,   -1,   -1],
// CHECK-NEXT:  [0,   -1,   -0.333252,   0.333252,   -1,   -1.33301,   -0.666504,   0,   0.666504,   1.33301,   -1,   -0.333252,   -0.666504,   -0.333252,   -1.33301,   -0.666504],
// CHECK-NEXT:  [-1.33301,   -0.666504,   -0,   -0.333252,   0,   -1,   -0.333252,   0.333252,   -1,   -1.33301,   -0.666504,   0,   0.666504,   1.33301,   -1,   -0.333252],
// CHECK-NEXT:  [-1,   -0.333252,   0.333252,   1,   -1.33301,   -0.666504,   -0,   -0.333252,   0,   -1,   -0.333252,   0.333252,   -1,   -1.33301,   -0.666504,   0],
// CHECK-NEXT:  [-0.666504,   0,   -1,   -0.666504,   -1,   -0.333252,   0.333252,   1,   -1.33301,   -0.666504,   -0,   -0.333252,   0,   -1,   -0.333252,   0.333252],
// CHECK-NEXT:  [-0.333252,   -0.333252,   0,   -1.33301,   -0.666504,   0,   -1,   -0.666504,   -1,   -0.333252,   0.333252,   1,   -1.33301,   -0.666504,   -0,   -0.333252],
// CHECK-NEXT:  [0,   0.666504,   1.33301,   -1,   -0.333252,   -0.333252,   0,   -1.33301,   -0.666504,   0,   -1,   -0.666504,   -1,   -0.333252,   0.333252,   1],
// CHECK-NEXT:  [-1,   -0.666504,   -1.33301,   -0.666504,   0,   0.666504,   1.33301,   -1,   -0.333252,   -0.333252,   0,   -1.33301,   -0.666504,   0,   -1,   -0.666504],
// CHECK-NEXT:  [0,   1.33301,   -1,   -0.333252,   -1,   -0.666504,   -1.33301,   -0.666504,   0,   0.666504,   1.33301,   -1,   -0.333252,   -0.333252,   0,   -1.33301]]

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @elementwise(%a: memref<16x16xf16>, %b: memref<16x16xf16>, %c: memref<16x16xf16>) kernel {
      %c0 = arith.constant 0 : index
      %three = arith.constant 3.0 : f16
      %fa = gpu.subgroup_mma_load_matrix %a[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf16> -> !gpu.mma_matrix<16x16xf16, "COp">
      %fb = gpu.subgroup_mma_load_matrix %b[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf16> -> !gpu.mma_matrix<16x16xf16, "COp">
      %f3 = gpu.subgroup_mma_constant_matrix %three : !gpu.mma_matrix<16x16xf16, "COp">
      %p = gpu.subgroup_mma_elementwise mulf %fa, %fb : (!gpu.mma_matrix<16x16xf16, "COp">, !gpu.mma_matrix<16x16xf16, "COp">) -> !gpu.mma_matrix<16x16xf16, "COp">
      %m = gpu.subgroup_mma_elementwise maxf %p, %fb : (!gpu.mma_matrix<16x16xf16, "COp">, !gpu.mma_matrix<16x16xf16, "COp">) -> !gpu.mma_matrix<16x16xf16, "COp">
      %n = gpu.subgroup_mma_elementwise minf %m, %fa : (!gpu.mma_matrix<16x16xf16, "COp">, !gpu.mma_matrix<16x16xf16, "COp">) -> !gpu.mma_matrix<16x16xf16, "COp">
      %d = gpu.subgroup_mma_elementwise divf %n, %f3 : (!gpu.mma_matrix<16x16xf16, "COp">, !gpu.mma_matrix<16x16xf16, "COp">) -> !gpu.mma_matrix<16x16xf16, "COp">
      gpu.subgroup_mma_store_matrix %d, %c[%c0, %c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xf16, "COp">, memref<16x16xf16>
      gpu.return
    }
  }
  func.func private @printMemrefF32(memref<*xf32>)
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %c7 = arith.constant 7 : index
    %c9 = arith.constant 9 : index
    %c16 = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    %ha = memref.alloc() : memref<16x16xf16>
    %hb = memref.alloc() : memref<16x16xf16>
    scf.for %i = %c0 to %c16 step %c1 {
      scf.for %j = %c0 to %c16 step %c1 {
        %j2 = arith.muli %j, %c2 : index
        %s = arith.addi %i, %j2 : index
        %r = arith.remui %s, %c9 : index
        %r4 = arith.subi %r, %c4 : index
        %ri = arith.index_cast %r4 : index to i32
        %f = arith.sitofp %ri : i32 to f16
        memref.store %f, %ha[%i, %j] : memref<16x16xf16>
        %i3 = arith.muli %i, %c3 : index
        %t = arith.addi %i3, %j : index
        %q = arith.remui %t, %c7 : index
        %q3 = arith.subi %q, %c3 : index
        %qi = arith.index_cast %q3 : index to i32
        %g = arith.sitofp %qi : i32 to f16
        memref.store %g, %hb[%i, %j] : memref<16x16xf16>
      }
    }
    %a = gpu.alloc() : memref<16x16xf16>
    %b = gpu.alloc() : memref<16x16xf16>
    %c = gpu.alloc() : memref<16x16xf16>
    gpu.memcpy %a, %ha : memref<16x16xf16>, memref<16x16xf16>
    gpu.memcpy %b, %hb : memref<16x16xf16>, memref<16x16xf16>
    gpu.launch_func @kernels::@elementwise blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%a : memref<16x16xf16>, %b : memref<16x16xf16>, %c : memref<16x16xf16>)
    %hc = memref.alloc() : memref<16x16xf16>
    gpu.memcpy %hc, %c : memref<16x16xf16>, memref<16x16xf16>
    %wide = memref.alloc() : memref<16x16xf32>
    scf.for %i = %c0 to %c16 step %c1 {
      scf.for %j = %c0 to %c16 step %c1 {
        %x = memref.load %hc[%i, %j] : memref<16x16xf16>
        %y = arith.extf %x : f16 to f32
        memref.store %y, %wide[%i, %j] : memref<16x16xf32>
      }
    }
    %uw = memref.cast %wide : memref<16x16xf32> to memref<*xf32>
    call @printMemrefF32(%uw) : (memref<*xf32>) -> ()
    return
  }
}
