// gpu.subgroup_reduce of integers narrower than 32 bits (shuffled as their bits zero-extended
// to i32) by eight threads: thread t holds 100 + t as an i8 and 1000 · (t - 4) as an i16. The
// i8 sum wraps: 800 + 28 = 828 = 60 mod 256; the i16 minimum and maximum are signed.
// RUN: gpu-run %s --provider interp | filecheck %s
// RUN: gpu-run %s --provider cpu | filecheck %s

// CHECK:      Unranked Memref base@ = {{0x[0-9a-f]+}} rank = 2 offset = 0 sizes = [3, 8] strides = [8, 1] data =
// CHECK-NEXT: {{\[}}[60,   60,   60,   60,   60,   60,   60,   60],
// CHECK-NEXT:  [-4000,   -4000,   -4000,   -4000,   -4000,   -4000,   -4000,   -4000],
// CHECK-NEXT:  [3000,   3000,   3000,   3000,   3000,   3000,   3000,   3000]]
// CHECK-EMPTY:

func.func private @printMemrefI32(memref<*xi32>)
func.func @main() {
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %out = memref.alloc() : memref<3x8xi32>
  %u = memref.cast %out : memref<3x8xi32> to memref<*xi32>
  gpu.host_register %u : memref<*xi32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c1, %sz = %c1) {
    %t = arith.index_cast %tx : index to i32
    %hundred = arith.constant 100 : i32
    %four = arith.constant 4 : i32
    %thousand = arith.constant 1000 : i32
    %a = arith.addi %t, %hundred : i32
    %a8 = arith.trunci %a : i32 to i8
    %b = arith.subi %t, %four : i32
    %c = arith.muli %b, %thousand : i32
    %c16 = arith.trunci %c : i32 to i16
    %sum = gpu.subgroup_reduce add %a8 : (i8) -> i8
    %low = gpu.subgroup_reduce minsi %c16 : (i16) -> i16
    %high = gpu.subgroup_reduce maxsi %c16 : (i16) -> i16
    %sum32 = arith.extsi %sum : i8 to i32
    %low32 = arith.extsi %low : i16 to i32
    %high32 = arith.extsi %high : i16 to i32
    %r0 = arith.constant 0 : index
    %r1 = arith.constant 1 : index
    %r2 = arith.constant 2 : index
    memref.store %sum32, %out[%r0, %tx] : memref<3x8xi32>
    memref.store %low32, %out[%r1, %tx] : memref<3x8xi32>
    memref.store %high32, %out[%r2, %tx] : memref<3x8xi32>
    gpu.terminator
  }
  call @printMemrefI32(%u) : (memref<*xi32>) -> ()
  return
}
