// memref.subview folded into the loads and stores that use it by --fold-memref-alias-ops: a
// strided view made on the host (rows 1, 3, 5 and columns 2..5 of an 8x8 matrix) and read in a
// gpu.launch, and a one-row view of the output made in the kernel, become loads and stores of
// the whole memrefs at indices computed by affine.apply (lowered to arith), and
// --gpu-kernel-outlining then passes the whole memrefs to the kernel. (gpuir takes no subview
// into a kernel: a view of host memory is known only in the function that makes it.)
// Expected output: numpy, from the NUMPY lines (Inputs/numpy_expect.py prints it, and the
// CHECK lines are what it printed).
// RUN: mlir-opt-22 %s --fold-memref-alias-ops --lower-affine --canonicalize \
// RUN:   --gpu-kernel-outlining > %t.mlir
// RUN: filecheck %s --check-prefix=LOWERED < %t.mlir
// RUN: python %S/Inputs/numpy_expect.py %s | filecheck %s
// RUN: gpu-run %t.mlir --provider interp | filecheck %s
// RUN: gpu-run %t.mlir --provider cpu | filecheck %s

// LOWERED:      gpu.launch_func @main_kernel::@main_kernel blocks in (%c3, %c1, %c1) threads in (%c4, %c1, %c1) args({{.*}} : memref<8x8xf32>, {{.*}} : memref<3x4xf32>)
// LOWERED:      gpu.func @main_kernel({{.*}}%[[A:arg[0-9]+]]: memref<8x8xf32>, {{.*}}%[[O:arg[0-9]+]]: memref<3x4xf32>) kernel
// LOWERED-NOT:    memref.subview
// LOWERED:        memref.load %[[A]][%{{.*}}, %{{.*}}] : memref<8x8xf32>
// LOWERED-NOT:    memref.subview
// LOWERED:        memref.store %{{.*}}, %[[O]][%{{.*}}, %{{.*}}] : memref<3x4xf32>

// NUMPY: a = np.arange(64, dtype=np.float32).reshape(8, 8)
// NUMPY: show(a[1:7:2, 2:6] * 2 - 1)

// CHECK:      rank = 2 offset = 0 sizes = [3, 4] strides = [4, 1] data =
// CHECK-NEXT: {{\[\[}}19,   21,   23,   25],
// CHECK-NEXT:  [51,   53,   55,   57],
// CHECK-NEXT:  [83,   85,   87,   89]]

func.func private @printMemrefF32(memref<*xf32>)
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %a = memref.alloc() : memref<8x8xf32>
  %o = memref.alloc() : memref<3x4xf32>
  scf.for %i = %c0 to %c8 step %c1 {
    scf.for %j = %c0 to %c8 step %c1 {
      %k = arith.muli %i, %c8 : index
      %l = arith.addi %k, %j : index
      %li = arith.index_cast %l : index to i32
      %f = arith.sitofp %li : i32 to f32
      memref.store %f, %a[%i, %j] : memref<8x8xf32>
    }
  }
  %ha = memref.cast %a : memref<8x8xf32> to memref<*xf32>
  %ho = memref.cast %o : memref<3x4xf32> to memref<*xf32>
  gpu.host_register %ha : memref<*xf32>
  gpu.host_register %ho : memref<*xf32>
  %view = memref.subview %a[1, 2] [3, 4] [2, 1]
      : memref<8x8xf32> to memref<3x4xf32, strided<[16, 1], offset: 10>>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c3, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    %v = memref.load %view[%bx, %tx] : memref<3x4xf32, strided<[16, 1], offset: 10>>
    %two = arith.constant 2.0 : f32
    %one = arith.constant 1.0 : f32
    %d = arith.mulf %v, %two : f32
    %w = arith.subf %d, %one : f32
    %row = memref.subview %o[%bx, 0] [1, 4] [1, 1]
        : memref<3x4xf32> to memref<1x4xf32, strided<[4, 1], offset: ?>>
    memref.store %w, %row[%c0, %tx] : memref<1x4xf32, strided<[4, 1], offset: ?>>
    gpu.terminator
  }
  call @printMemrefF32(%ho) : (memref<*xf32>) -> ()
  return
}
