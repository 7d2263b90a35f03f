// A whole pipeline from linalg to outlined, asynchronous kernels: C = max(A B + bias, 0) as
// linalg.fill, linalg.matmul and an elementwise linalg.generic (the bias broadcast along the
// rows), lowered to parallel loops, tiled by 4x4 (affine.min bounds, canonicalized to the
// constant block size with an scf.if at the edges), mapped to blocks and threads, converted to
// gpu.launch, their index computations sunk into them, outlined into gpu.modules of kernels
// with known_block_size / known_grid_size, made asynchronous (one chain of tokens from a
// gpu.wait async to a gpu.wait), and --cse'd.
// Expected output: numpy, from the NUMPY lines (Inputs/numpy_expect.py prints it, and the
// CHECK lines are what it printed).
// RUN: mlir-opt-22 %s --convert-linalg-to-parallel-loops \
// RUN:   --scf-parallel-loop-tiling=parallel-loop-tile-sizes=4,4 --canonicalize \
// RUN:   --gpu-map-parallel-loops --convert-parallel-loops-to-gpu --lower-affine \
// RUN:   --canonicalize --gpu-launch-sink-index-computations --gpu-kernel-outlining \
// RUN:   --gpu-async-region --canonicalize --cse > %t.mlir
// RUN: filecheck %s --check-prefix=LOWERED < %t.mlir
// RUN: python %S/Inputs/numpy_expect.py %s | filecheck %s
// RUN: gpu-run %t.mlir --provider interp | filecheck %s
// RUN: gpu-run %t.mlir --provider cpu | filecheck %s

// LOWERED:      %[[T0:.*]] = gpu.wait async
// LOWERED-NEXT: %[[T1:.*]] = gpu.launch_func async [%[[T0]]] @main_kernel::@main_kernel blocks in (%c2, %c3, %c1) threads in (%c4, %c4, %c1)
// LOWERED-NEXT: %[[T2:.*]] = gpu.launch_func async [%[[T1]]] @main_kernel_0::@main_kernel blocks in (%c2, %c3, %c1) threads in (%c4, %c4, %c1)
// LOWERED-NEXT: %[[T3:.*]] = gpu.launch_func async [%[[T2]]] @main_kernel_1::@main_kernel blocks in (%c2, %c3, %c1) threads in (%c4, %c4, %c1)
// LOWERED-NEXT: gpu.wait [%[[T3]]]
// LOWERED:      gpu.func @main_kernel({{.*}}) kernel attributes {known_block_size = array<i32: 4, 4, 1>, known_grid_size = array<i32: 2, 3, 1>}

// NUMPY: i, k = np.indices((6, 5))
// NUMPY: a = ((i + 2 * k) % 5 - 1).astype(np.float32)
// NUMPY: b = (np.arange(5)[:, None] - np.arange(10) // 2).astype(np.float32)  # b[k][j] = k - j div 2
// NUMPY: bias = (2 * np.arange(10) - 8).astype(np.float32)
// NUMPY: show(np.maximum(a @ b + bias, 0).astype(np.float32))

// CHECK:      rank = 2 offset = 0 sizes = [6, 10] strides = [10, 1] data =
// CHECK-NEXT: {{\[\[}}7,   9,   6,   8,   5,   7,   4,   6,   3,   5],
// CHECK-NEXT:  [7,   9,   6,   8,   5,   7,   4,   6,   3,   5],
// CHECK-NEXT:  [0,   0,   0,   0,   0,   0,   0,   0,   0,   0],
// CHECK-NEXT:  [2,   4,   1,   3,   0,   2,   0,   1,   0,   0],
// CHECK-NEXT:  [0,   0,   0,   0,   0,   0,   0,   0,   0,   0],
// CHECK-NEXT:  [7,   9,   6,   8,   5,   7,   4,   6,   3,   5]]

func.func private @printMemrefF32(memref<*xf32>)
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c5 = arith.constant 5 : index
  %c6 = arith.constant 6 : index
  %c8 = arith.constant 8 : index
  %c10 = arith.constant 10 : index
  %zero = arith.constant 0.0 : f32
  %a = memref.alloc() : memref<6x5xf32>
  %b = memref.alloc() : memref<5x10xf32>
  %bias = memref.alloc() : memref<10xf32>
  %c = memref.alloc() : memref<6x10xf32>
  scf.for %i = %c0 to %c6 step %c1 {
    scf.for %k = %c0 to %c5 step %c1 {
      %k2 = arith.muli %k, %c2 : index
      %d = arith.addi %i, %k2 : index
      %r = arith.remui %d, %c5 : index
      %m = arith.subi %r, %c1 : index
      %mi = arith.index_cast %m : index to i32
      %f = arith.sitofp %mi : i32 to f32
      memref.store %f, %a[%i, %k] : memref<6x5xf32>
    }
  }
  scf.for %k = %c0 to %c5 step %c1 {
    scf.for %j = %c0 to %c10 step %c1 {
      %h = arith.divui %j, %c2 : index
      %d = arith.subi %k, %h : index
      %di = arith.index_cast %d : index to i32
      %f = arith.sitofp %di : i32 to f32
      memref.store %f, %b[%k, %j] : memref<5x10xf32>
    }
  }
  scf.for %j = %c0 to %c10 step %c1 {
    %j2 = arith.muli %j, %c2 : index
    %d = arith.subi %j2, %c8 : index
    %di = arith.index_cast %d : index to i32
    %f = arith.sitofp %di : i32 to f32
    memref.store %f, %bias[%j] : memref<10xf32>
  }
  %ha = memref.cast %a : memref<6x5xf32> to memref<*xf32>
  %hb = memref.cast %b : memref<5x10xf32> to memref<*xf32>
  %hbias = memref.cast %bias : memref<10xf32> to memref<*xf32>
  %hc = memref.cast %c : memref<6x10xf32> to memref<*xf32>
  gpu.host_register %ha : memref<*xf32>
  gpu.host_register %hb : memref<*xf32>
  gpu.host_register %hbias : memref<*xf32>
  gpu.host_register %hc : memref<*xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<6x10xf32>)
  linalg.matmul ins(%a, %b : memref<6x5xf32>, memref<5x10xf32>) outs(%c : memref<6x10xf32>)
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%bias : memref<10xf32>) outs(%c : memref<6x10xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %acc, %x : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  }
  call @printMemrefF32(%hc) : (memref<*xf32>) -> ()
  return
}
