// gpu.all_reduce minnumf, maxnumf, minimumf and maximumf over NaNs, on f32, f16 and f64 (the
// f32 values converted, the results converted back to f32), and in the region form on f32:
// minnumf and maxnumf (IEEE minNum / maxNum) skip NaNs and give NaN only when every value is
// one; minimumf and maximumf (IEEE minimum / maximum) give NaN when any value is one. Five
// blocks of five threads (not a power of two), each its own row of the table:
//   block 0: nan, 1, 2, 3, 4         (a NaN first)
//   block 1: 4, -1, nan, 2, nan      (NaNs inside and last)
//   block 2: nan, nan, nan, nan, nan
//   block 3: -inf, nan, inf, 5, -0.5 (infinities)
//   block 4: 2, -0.5, 8, -3, 1       (no NaN)
// @main stores the NaNs and infinities (xDSL reads a hex literal in dense<…> as an integer).
// Every thread stores its result at column 5 · block + thread of its kind's row.
// RUN: gpu-run %s --provider interp | filecheck %s
// RUN: gpu-run %s --provider cpu | filecheck %s

// CHECK:      Unranked Memref base@ = {{0x[0-9a-f]+}} rank = 2 offset = 0 sizes = [14, 25] strides = [25, 1] data =
// minnumf f32:
// CHECK-NEXT: {{\[}}[1,   1,   1,   1,   1,   -1,   -1,   -1,   -1,   -1,   nan,   nan,   nan,   nan,   nan,   -inf,   -inf,   -inf,   -inf,   -inf,   -3,   -3,   -3,   -3,   -3],
// maxnumf f32:
// CHECK-NEXT:  [4,   4,   4,   4,   4,   4,   4,   4,   4,   4,   nan,   nan,   nan,   nan,   nan,   inf,   inf,   inf,   inf,   inf,   8,   8,   8,   8,   8],
// minimumf f32:
// CHECK-NEXT:  [nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   -3,   -3,   -3,   -3,   -3],
// maximumf f32:
// CHECK-NEXT:  [nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   8,   8,   8,   8,   8],
// minnumf f16:
// CHECK-NEXT:  [1,   1,   1,   1,   1,   -1,   -1,   -1,   -1,   -1,   nan,   nan,   nan,   nan,   nan,   -inf,   -inf,   -inf,   -inf,   -inf,   -3,   -3,   -3,   -3,   -3],
// maxnumf f16:
// CHECK-NEXT:  [4,   4,   4,   4,   4,   4,   4,   4,   4,   4,   nan,   nan,   nan,   nan,   nan,   inf,   inf,   inf,   inf,   inf,   8,   8,   8,   8,   8],
// minimumf f16:
// CHECK-NEXT:  [nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   -3,   -3,   -3,   -3,   -3],
// maximumf f16:
// CHECK-NEXT:  [nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   8,   8,   8,   8,   8],
// minnumf f64:
// CHECK-NEXT:  [1,   1,   1,   1,   1,   -1,   -1,   -1,   -1,   -1,   nan,   nan,   nan,   nan,   nan,   -inf,   -inf,   -inf,   -inf,   -inf,   -3,   -3,   -3,   -3,   -3],
// maxnumf f64:
// CHECK-NEXT:  [4,   4,   4,   4,   4,   4,   4,   4,   4,   4,   nan,   nan,   nan,   nan,   nan,   inf,   inf,   inf,   inf,   inf,   8,   8,   8,   8,   8],
// minimumf f64:
// CHECK-NEXT:  [nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   -3,   -3,   -3,   -3,   -3],
// maximumf f64:
// CHECK-NEXT:  [nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   8,   8,   8,   8,   8],
// region arith.minnumf f32:
// CHECK-NEXT:  [1,   1,   1,   1,   1,   -1,   -1,   -1,   -1,   -1,   nan,   nan,   nan,   nan,   nan,   -inf,   -inf,   -inf,   -inf,   -inf,   -3,   -3,   -3,   -3,   -3],
// region arith.maxnumf f32:
// CHECK-NEXT:  [4,   4,   4,   4,   4,   4,   4,   4,   4,   4,   nan,   nan,   nan,   nan,   nan,   inf,   inf,   inf,   inf,   inf,   8,   8,   8,   8,   8]]
// CHECK-EMPTY:

memref.global "private" @table : memref<5x5xf32> = dense<[[0.0, 1.0, 2.0, 3.0, 4.0], [4.0, -1.0, 0.0, 2.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 5.0, -0.5], [2.0, -0.5, 8.0, -3.0, 1.0]]>
func.func private @printMemrefF32(memref<*xf32>)
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %nan = arith.constant 0x7FC00000 : f32
  %inf = arith.constant 0x7F800000 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %t = memref.get_global @table : memref<5x5xf32>
  memref.store %nan, %t[%c0, %c0] : memref<5x5xf32>
  memref.store %nan, %t[%c1, %c2] : memref<5x5xf32>
  memref.store %nan, %t[%c1, %c4] : memref<5x5xf32>
  scf.for %i = %c0 to %c5 step %c1 {
    memref.store %nan, %t[%c2, %i] : memref<5x5xf32>
  }
  memref.store %ninf, %t[%c3, %c0] : memref<5x5xf32>
  memref.store %nan, %t[%c3, %c1] : memref<5x5xf32>
  memref.store %inf, %t[%c3, %c2] : memref<5x5xf32>
  %ut = memref.cast %t : memref<5x5xf32> to memref<*xf32>
  gpu.host_register %ut : memref<*xf32>
  %out = memref.alloc() : memref<14x25xf32>
  %u = memref.cast %out : memref<14x25xf32> to memref<*xf32>
  gpu.host_register %u : memref<*xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c5, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c5, %sy = %c1, %sz = %c1) {
    %v = memref.load %t[%bx, %tx] : memref<5x5xf32>
    %h = arith.truncf %v : f32 to f16
    %d = arith.extf %v : f32 to f64
    %five = arith.constant 5 : index
    %base = arith.muli %bx, %five : index
    %col = arith.addi %base, %tx : index
    %minnumf_f32 = gpu.all_reduce minnumf %v uniform {} : (f32) -> (f32)
    %row0 = arith.constant 0 : index
    memref.store %minnumf_f32, %out[%row0, %col] : memref<14x25xf32>
    %maxnumf_f32 = gpu.all_reduce maxnumf %v uniform {} : (f32) -> (f32)
    %row1 = arith.constant 1 : index
    memref.store %maxnumf_f32, %out[%row1, %col] : memref<14x25xf32>
    %minimumf_f32 = gpu.all_reduce minimumf %v uniform {} : (f32) -> (f32)
    %row2 = arith.constant 2 : index
    memref.store %minimumf_f32, %out[%row2, %col] : memref<14x25xf32>
    %maximumf_f32 = gpu.all_reduce maximumf %v uniform {} : (f32) -> (f32)
    %row3 = arith.constant 3 : index
    memref.store %maximumf_f32, %out[%row3, %col] : memref<14x25xf32>
    %minnumf_f16 = gpu.all_reduce minnumf %h uniform {} : (f16) -> (f16)
    %minnumf_f16_32 = arith.extf %minnumf_f16 : f16 to f32
    %row4 = arith.constant 4 : index
    memref.store %minnumf_f16_32, %out[%row4, %col] : memref<14x25xf32>
    %maxnumf_f16 = gpu.all_reduce maxnumf %h uniform {} : (f16) -> (f16)
    %maxnumf_f16_32 = arith.extf %maxnumf_f16 : f16 to f32
    %row5 = arith.constant 5 : index
    memref.store %maxnumf_f16_32, %out[%row5, %col] : memref<14x25xf32>
    %minimumf_f16 = gpu.all_reduce minimumf %h uniform {} : (f16) -> (f16)
    %minimumf_f16_32 = arith.extf %minimumf_f16 : f16 to f32
    %row6 = arith.constant 6 : index
    memref.store %minimumf_f16_32, %out[%row6, %col] : memref<14x25xf32>
    %maximumf_f16 = gpu.all_reduce maximumf %h uniform {} : (f16) -> (f16)
    %maximumf_f16_32 = arith.extf %maximumf_f16 : f16 to f32
    %row7 = arith.constant 7 : index
    memref.store %maximumf_f16_32, %out[%row7, %col] : memref<14x25xf32>
    %minnumf_f64 = gpu.all_reduce minnumf %d uniform {} : (f64) -> (f64)
    %minnumf_f64_32 = arith.truncf %minnumf_f64 : f64 to f32
    %row8 = arith.constant 8 : index
    memref.store %minnumf_f64_32, %out[%row8, %col] : memref<14x25xf32>
    %maxnumf_f64 = gpu.all_reduce maxnumf %d uniform {} : (f64) -> (f64)
    %maxnumf_f64_32 = arith.truncf %maxnumf_f64 : f64 to f32
    %row9 = arith.constant 9 : index
    memref.store %maxnumf_f64_32, %out[%row9, %col] : memref<14x25xf32>
    %minimumf_f64 = gpu.all_reduce minimumf %d uniform {} : (f64) -> (f64)
    %minimumf_f64_32 = arith.truncf %minimumf_f64 : f64 to f32
    %row10 = arith.constant 10 : index
    memref.store %minimumf_f64_32, %out[%row10, %col] : memref<14x25xf32>
    %maximumf_f64 = gpu.all_reduce maximumf %d uniform {} : (f64) -> (f64)
    %maximumf_f64_32 = arith.truncf %maximumf_f64 : f64 to f32
    %row11 = arith.constant 11 : index
    memref.store %maximumf_f64_32, %out[%row11, %col] : memref<14x25xf32>
    %region_minnumf = gpu.all_reduce %v {
    ^bb0(%x: f32, %y: f32):
      %z = arith.minnumf %x, %y : f32
      gpu.yield %z : f32
    } : (f32) -> (f32)
    %row12 = arith.constant 12 : index
    memref.store %region_minnumf, %out[%row12, %col] : memref<14x25xf32>
    %region_maxnumf = gpu.all_reduce %v {
    ^bb0(%x: f32, %y: f32):
      %z = arith.maxnumf %x, %y : f32
      gpu.yield %z : f32
    } : (f32) -> (f32)
    %row13 = arith.constant 13 : index
    memref.store %region_maxnumf, %out[%row13, %col] : memref<14x25xf32>
    gpu.terminator
  }
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
