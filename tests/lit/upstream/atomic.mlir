// memref.atomic_rmw in a kernel: 2 blocks of 32 threads each add 1 to a counter, take the
// maximum and the minimum of their global ids (signed, and unsigned of id - 10), add 0.5 to a
// float, and assign 7 (each the old value it returns unused).
// RUN: gpu-run %s --provider interp | filecheck %s
// RUN: gpu-run %s --provider cpu | filecheck %s
// RUN: gpu-run %s --provider cpu --check | filecheck %s

// The ints: [count, max, min, umax of id - 10 (-1 as unsigned), assigned]; the float sum.
// CHECK:      [64, 63, 0, -1, 7]
// CHECK:      [32]

func.func private @printMemrefI32(memref<*xi32>)
func.func private @printMemrefF32(memref<*xf32>)
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c32 = arith.constant 32 : index
  %zero = arith.constant 0 : i32
  %big = arith.constant 1000 : i32
  %ints = memref.alloc() : memref<5xi32>
  memref.store %zero, %ints[%c0] : memref<5xi32>
  memref.store %zero, %ints[%c1] : memref<5xi32>
  memref.store %big, %ints[%c2] : memref<5xi32>
  memref.store %zero, %ints[%c3] : memref<5xi32>
  memref.store %zero, %ints[%c4] : memref<5xi32>
  %fsum = memref.alloc() : memref<1xf32>
  %f0 = arith.constant 0.0 : f32
  memref.store %f0, %fsum[%c0] : memref<1xf32>
  %ui = memref.cast %ints : memref<5xi32> to memref<*xi32>
  %uf = memref.cast %fsum : memref<1xf32> to memref<*xf32>
  gpu.host_register %ui : memref<*xi32>
  gpu.host_register %uf : memref<*xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %base = arith.muli %bx, %sx : index
    %gid = arith.addi %base, %tx : index
    %id = arith.index_cast %gid : index to i32
    %one = arith.constant 1 : i32
    %ten = arith.constant 10 : i32
    %seven = arith.constant 7 : i32
    %half = arith.constant 0.5 : f32
    %shifted = arith.subi %id, %ten : i32
    %a = memref.atomic_rmw addi %one, %ints[%c0] : (i32, memref<5xi32>) -> i32
    %b = memref.atomic_rmw maxs %id, %ints[%c1] : (i32, memref<5xi32>) -> i32
    %c = memref.atomic_rmw mins %id, %ints[%c2] : (i32, memref<5xi32>) -> i32
    %d = memref.atomic_rmw maxu %shifted, %ints[%c3] : (i32, memref<5xi32>) -> i32
    %e = memref.atomic_rmw assign %seven, %ints[%c4] : (i32, memref<5xi32>) -> i32
    %f = memref.atomic_rmw addf %half, %fsum[%c0] : (f32, memref<1xf32>) -> f32
    gpu.terminator
  }
  func.call @printMemrefI32(%ui) : (memref<*xi32>) -> ()
  func.call @printMemrefF32(%uf) : (memref<*xf32>) -> ()
  return
}
