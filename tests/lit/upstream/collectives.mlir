// gpu.all_reduce (add, minsi, maxsi, or) over each block, gpu.shuffle xor and gpu.printf in
// kernels of two gpu.launch regions, in upstream syntax. Block i holds 7 i + j - 7 for j < 6:
// its sum, least, greatest and or; the shuffle swaps neighbouring threads' values.
// RUN: gpu-run %s --provider interp | filecheck %s
// RUN: gpu-run %s --provider cpu | filecheck %s

// CHECK:      thread 0 of 8
// CHECK:      thread 7 of 8
// CHECK-NEXT: Unranked Memref base@ = {{0x[0-9a-f]+}} rank = 2 offset = 0 sizes = [2, 4] strides = [4, 1] data =
// CHECK-NEXT: {{\[}}[-27,   -7,   -2,   -1],
// CHECK-NEXT:  [15,   0,   5,   7]]
// CHECK-NEXT: Unranked Memref base@ = {{0x[0-9a-f]+}} rank = 1 offset = 0 sizes = [8] strides = [1] data =
// CHECK-NEXT: [1,  0,  3,  2,  5,  4,  7,  6]
// CHECK-EMPTY:

func.func private @printMemrefI32(memref<*xi32>)
func.func private @printMemrefF32(memref<*xf32>)
func.func @main() {
  %data = memref.alloc() : memref<2x6xi32>
  %sums = memref.alloc() : memref<2x4xi32>
  %shuf = memref.alloc() : memref<8xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c6 = arith.constant 6 : index
  %c8 = arith.constant 8 : index
  %cd = memref.cast %data : memref<2x6xi32> to memref<*xi32>
  gpu.host_register %cd : memref<*xi32>
  %cs = memref.cast %sums : memref<2x4xi32> to memref<*xi32>
  gpu.host_register %cs : memref<*xi32>
  %cf = memref.cast %shuf : memref<8xf32> to memref<*xf32>
  gpu.host_register %cf : memref<*xf32>
  scf.for %i = %c0 to %c2 step %c1 {
    scf.for %j = %c0 to %c6 step %c1 {
      %ii = arith.index_cast %i : index to i32
      %jj = arith.index_cast %j : index to i32
      %k = arith.constant 7 : i32
      %t = arith.muli %ii, %k : i32
      %v = arith.addi %t, %jj : i32
      %w = arith.subi %v, %k : i32
      memref.store %w, %data[%i, %j] : memref<2x6xi32>
    }
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c6, %sy = %c1, %sz = %c1) {
    %v = memref.load %data[%bx, %tx] : memref<2x6xi32>
    %sum = gpu.all_reduce add %v uniform {} : (i32) -> (i32)
    %low = gpu.all_reduce minsi %v uniform {} : (i32) -> (i32)
    %high = gpu.all_reduce maxsi %v uniform {} : (i32) -> (i32)
    %ored = gpu.all_reduce or %v uniform {} : (i32) -> (i32)
    %first = arith.cmpi eq, %tx, %c0 : index
    scf.if %first {
      memref.store %sum, %sums[%bx, %c0] : memref<2x4xi32>
      %c3 = arith.constant 3 : index
      memref.store %low, %sums[%bx, %c1] : memref<2x4xi32>
      memref.store %high, %sums[%bx, %c2] : memref<2x4xi32>
      memref.store %ored, %sums[%bx, %c3] : memref<2x4xi32>
    }
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c1, %sz = %c1) {
    %t32 = arith.index_cast %tx : index to i32
    %f = arith.sitofp %t32 : i32 to f32
    %one = arith.constant 1 : i32
    %eight = arith.constant 8 : i32
    %r, %ok = gpu.shuffle xor %f, %one, %eight : f32
    memref.store %r, %shuf[%tx] : memref<8xf32>
    gpu.printf "thread %d of %lld\n", %t32, %sx : i32, index
    gpu.terminator
  }
  call @printMemrefI32(%cs) : (memref<*xi32>) -> ()
  call @printMemrefF32(%cf) : (memref<*xf32>) -> ()
  return
}
