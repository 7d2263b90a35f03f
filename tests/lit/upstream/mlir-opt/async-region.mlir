// Two gpu.launch regions on device memory (gpu.alloc, gpu.memcpy there and back,
// gpu.dealloc), outlined by --gpu-kernel-outlining into two gpu.modules whose kernels have the
// same name (@main_kernel::@main_kernel, @main_kernel_0::@main_kernel), then made asynchronous
// by --gpu-async-region: a gpu.wait async starts a chain of async tokens through every gpu op,
// and a gpu.wait on the last token ends it before the host reads the memory. The second kernel
// reads what the first wrote, in another launch.
// Expected output: numpy, from the NUMPY lines (Inputs/numpy_expect.py prints it, and the
// CHECK lines are what it printed).
// RUN: mlir-opt-22 %s --gpu-kernel-outlining --gpu-async-region --canonicalize > %t.mlir
// RUN: filecheck %s --check-prefix=LOWERED < %t.mlir
// RUN: python %S/Inputs/numpy_expect.py %s | filecheck %s
// RUN: gpu-run %t.mlir --provider interp | filecheck %s
// RUN: gpu-run %t.mlir --provider cpu | filecheck %s

// LOWERED:      %[[T0:.*]] = gpu.wait async
// LOWERED:      gpu.alloc async [%[[T0]]] ()
// LOWERED:      gpu.memcpy async
// LOWERED:      %[[L1:.*]] = gpu.launch_func async [%{{.*}}] @main_kernel::@main_kernel
// LOWERED:      %[[L2:.*]] = gpu.launch_func async [%[[L1]]] @main_kernel_0::@main_kernel
// LOWERED:      gpu.memcpy async [%[[L2]]]
// LOWERED:      gpu.dealloc async
// LOWERED:      gpu.wait [%{{.*}}]
// LOWERED-NEXT: call @printMemrefI32
// LOWERED:      gpu.module @main_kernel {
// LOWERED:      gpu.module @main_kernel_0 {

// NUMPY: x = np.arange(12, dtype=np.int32)
// NUMPY: e = x * x - 3  # the first kernel, 4 blocks of 4 threads (4 past the end do nothing)
// NUMPY: show(e + e[::-1])  # the second, 12 blocks of 1: d[i] = e[i] + e[11 - i]

// CHECK:      rank = 1 offset = 0 sizes = [12] strides = [1] data =
// CHECK-NEXT: [115,  95,  79,  67,  59,  55,  55,  59,  67,  79,  95,  115]

func.func private @printMemrefI32(memref<*xi32>)
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c12 = arith.constant 12 : index
  %h = memref.alloc() : memref<12xi32>
  scf.for %i = %c0 to %c12 step %c1 {
    %ii = arith.index_cast %i : index to i32
    memref.store %ii, %h[%i] : memref<12xi32>
  }
  %d = gpu.alloc () : memref<12xi32>
  %e = gpu.alloc () : memref<12xi32>
  gpu.memcpy %d, %h : memref<12xi32>, memref<12xi32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c4, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    %base = arith.muli %bx, %sx : index
    %i = arith.addi %base, %tx : index
    %inside = arith.cmpi ult, %i, %c12 : index
    scf.if %inside {
      %v = memref.load %d[%i] : memref<12xi32>
      %w = arith.muli %v, %v : i32
      %c3 = arith.constant 3 : i32
      %x = arith.subi %w, %c3 : i32
      memref.store %x, %e[%i] : memref<12xi32>
    }
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c12, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %v = memref.load %e[%bx] : memref<12xi32>
    %j = arith.subi %c12, %bx : index
    %k = arith.subi %j, %c1 : index
    %u = memref.load %e[%k] : memref<12xi32>
    %s = arith.addi %v, %u : i32
    memref.store %s, %d[%bx] : memref<12xi32>
    gpu.terminator
  }
  gpu.memcpy %h, %d : memref<12xi32>, memref<12xi32>
  gpu.dealloc %d : memref<12xi32>
  gpu.dealloc %e : memref<12xi32>
  %p = memref.cast %h : memref<12xi32> to memref<*xi32>
  call @printMemrefI32(%p) : (memref<*xi32>) -> ()
  return
}
