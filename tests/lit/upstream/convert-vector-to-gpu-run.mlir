// A kernel of vector ops on 16x16 tiles, which every thread of its warp would run alone, made
// the warp's matrix ops by --upstream-pass=convert-vector-to-gpu (MLIR's `mlir-opt
// -convert-vector-to-gpu`), then run: q = -(max(aᵀ · b + c, 2.5) * 0.5 - c) / 2.5, with `a`
// read transposed, f16 operands and f32 accumulators, a splat constant and a broadcast.
// Expected output: numpy's, from the NUMPY lines (mlir-opt/Inputs/numpy_expect.py prints it,
// and the CHECK lines are what it printed: `python numpy_expect.py --update` writes them).
// RUN: python %S/mlir-opt/Inputs/numpy_expect.py %s | filecheck %s
// RUN: gpu-run %s --upstream-pass=convert-vector-to-gpu --provider interp | filecheck %s
// RUN: gpu-run %s --upstream-pass=convert-vector-to-gpu --provider cpu | filecheck %s

// NUMPY: i, j = np.indices((16, 16))
// NUMPY: a = ((i + 2 * j) % 9 - 4).astype(np.float16)
// NUMPY: b = ((3 * i + j) % 7 - 3).astype(np.float16)
// NUMPY: c = (i - j).astype(np.float32)
// NUMPY: d = a.T.astype(np.float32) @ b.astype(np.float32) + c
// NUMPY: x = np.float32(2.5)
// NUMPY: show(-(np.maximum(d, x) * np.float32(0.5) - c) / x)

// CHECK:      rank = 2 offset = 0 sizes = [16, 16] strides = [16, 1] data =
// CHECK-NEXT: {{\[\[}}-0.5,   -4,   -5.6,   -1.7,   -2.1,   -2.5,   -2.9,   -3.3,   -5.4,   -7,   -4.5,   -4.9,   -5.3,   -5.7,   -6.1,   -6.8],
// CHECK-NEXT:  [-0.8,   -5.2,   -4,   -1.3,   -1.7,   -2.1,   -2.5,   -2.9,   -6.6,   -5.4,   -4.1,   -4.5,   -4.9,   -5.3,   -5.7,   -8],
// CHECK-NEXT:  [-6.6,   -4.6,   -0.5,   -0.9,   -1.4,   -1.7,   -2.1,   -8,   -6,   -3.3,   -3.7,   -4.1,   -4.5,   -4.9,   -9.4,   -7.4],
// CHECK-NEXT:  [-5.2,   0.3,   -0.1,   -1,   -0.9,   -1.3,   -6.6,   -6.6,   -2.5,   -2.9,   -3.3,   -3.7,   -4.1,   -8,   -8,   -5.3],
// CHECK-NEXT:  [1.1,   0.7,   0.3,   -0.1,   -0.5,   -5.2,   -7.2,   -1.7,   -2.1,   -2.5,   -2.9,   -3.3,   -6.6,   -8.6,   -4.5,   -4.9],
// CHECK-NEXT:  [1.5,   -1,   -1.2,   0.3,   -0.2,   -3.2,   -0.9,   -1.3,   -2.4,   -2.6,   -2.5,   -2.9,   -4.6,   -3.7,   -4.1,   -4.5],
// CHECK-NEXT:  [1.9,   1.4,   1.1,   0.7,   -6.4,   -4.8,   -0.5,   -0.9,   -1.3,   -1.7,   -2.1,   -7.8,   -6.2,   -3.3,   -3.7,   -4.1],
// CHECK-NEXT:  [0.4,   1.9,   1.5,   -5,   -5.4,   0.3,   -0.1,   -1,   -0.9,   -1.3,   -6.4,   -6.8,   -2.5,   -2.9,   -3.3,   -3.7],
// CHECK-NEXT:  [2.7,   2.3,   -3.6,   -6,   1.1,   0.7,   -0.6,   -0.1,   -0.5,   -5,   -7.4,   -1.7,   -2.1,   -2.5,   -2.9,   -3.3],
// CHECK-NEXT:  [3.1,   -2.2,   -3.8,   0.2,   1.5,   1.1,   0.7,   0.3,   -3.6,   -5.2,   -1.2,   -1.3,   -1.7,   -2.1,   -2.5,   -5],
// CHECK-NEXT:  [1,   -3.4,   -2.2,   2.3,   1.9,   1.4,   1.1,   -0.4,   -4.8,   -3.6,   -0.5,   -0.9,   -1.3,   -1.7,   -2.1,   -6.2],
// CHECK-NEXT:  [-4.8,   -2.8,   3.1,   2.7,   0.4,   1.9,   1.5,   -6.2,   -4.2,   0.3,   -0.1,   -1,   -0.9,   -1.3,   -7.6,   -5.6],
// CHECK-NEXT:  [-3.4,   3.9,   3.5,   0.8,   2.7,   2.3,   -4.8,   -4.8,   1.1,   0.7,   -0.6,   -0.1,   -0.5,   -6.2,   -6.2,   -1.7],
// CHECK-NEXT:  [4.7,   4.3,   2.6,   3.4,   3.1,   -3.4,   -5.4,   1.9,   1.5,   1.1,   0.7,   0.3,   -4.8,   -6.8,   -0.9,   -1.3],
// CHECK-NEXT:  [5.1,   0.8,   0.6,   3.9,   1.6,   -1.4,   1.2,   2.3,   -0.6,   -0.8,   1.1,   0.2,   -2.8,   -0.2,   -0.5,   -2],
// CHECK-NEXT:  [4.4,   3.2,   4.7,   4.3,   -4.6,   -3,   3.1,   2.7,   1.8,   1.9,   1.5,   -6,   -4.4,   0.3,   -0.1,   -0.5]]

#map_a = affine_map<(d0, d1, d2) -> (d0, d2)>
#map_b = affine_map<(d0, d1, d2) -> (d2, d1)>
#map_c = affine_map<(d0, d1, d2) -> (d0, d1)>
#transpose = affine_map<(d0, d1) -> (d1, d0)>
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @chain(%a: memref<16x16xf16>, %b: memref<16x16xf16>, %c: memref<16x16xf32>, %q: memref<16x16xf32>) kernel {
      %c0 = arith.constant 0 : index
      %h0 = arith.constant 0.0 : f16
      %f0 = arith.constant 0.0 : f32
      %x = arith.constant 2.5 : f32
      %A = vector.transfer_read %a[%c0, %c0], %h0 {in_bounds = [true, true], permutation_map = #transpose} : memref<16x16xf16>, vector<16x16xf16>
      %B = vector.transfer_read %b[%c0, %c0], %h0 {in_bounds = [true, true]} : memref<16x16xf16>, vector<16x16xf16>
      %C = vector.transfer_read %c[%c0, %c0], %f0 {in_bounds = [true, true]} : memref<16x16xf32>, vector<16x16xf32>
      %D = vector.contract {indexing_maps = [#map_a, #map_b, #map_c], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %A, %B, %C : vector<16x16xf16>, vector<16x16xf16> into vector<16x16xf32>
      %X = vector.broadcast %x : f32 to vector<16x16xf32>
      %half = arith.constant dense<0.5> : vector<16x16xf32>
      %E = arith.maximumf %D, %X : vector<16x16xf32>
      %F = arith.mulf %E, %half : vector<16x16xf32>
      %G = arith.subf %F, %C : vector<16x16xf32>
      %N = arith.negf %G : vector<16x16xf32>
      %Q = arith.divf %N, %X : vector<16x16xf32>
      vector.transfer_write %Q, %q[%c0, %c0] {in_bounds = [true, true]} : vector<16x16xf32>, memref<16x16xf32>
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
    %hc = memref.alloc() : memref<16x16xf32>
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
        %u = arith.remui %t, %c7 : index
        %u3 = arith.subi %u, %c3 : index
        %ui = arith.index_cast %u3 : index to i32
        %g = arith.sitofp %ui : i32 to f16
        memref.store %g, %hb[%i, %j] : memref<16x16xf16>
        %ii = arith.index_cast %i : index to i32
        %ji = arith.index_cast %j : index to i32
        %dij = arith.subi %ii, %ji : i32
        %e = arith.sitofp %dij : i32 to f32
        memref.store %e, %hc[%i, %j] : memref<16x16xf32>
      }
    }
    %a = gpu.alloc() : memref<16x16xf16>
    %b = gpu.alloc() : memref<16x16xf16>
    %c = gpu.alloc() : memref<16x16xf32>
    %q = gpu.alloc() : memref<16x16xf32>
    gpu.memcpy %a, %ha : memref<16x16xf16>, memref<16x16xf16>
    gpu.memcpy %b, %hb : memref<16x16xf16>, memref<16x16xf16>
    gpu.memcpy %c, %hc : memref<16x16xf32>, memref<16x16xf32>
    gpu.launch_func @kernels::@chain blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%a : memref<16x16xf16>, %b : memref<16x16xf16>, %c : memref<16x16xf32>, %q : memref<16x16xf32>)
    %hq = memref.alloc() : memref<16x16xf32>
    gpu.memcpy %hq, %q : memref<16x16xf32>, memref<16x16xf32>
    %uq = memref.cast %hq : memref<16x16xf32> to memref<*xf32>
    call @printMemrefF32(%uq) : (memref<*xf32>) -> ()
    return
  }
}
