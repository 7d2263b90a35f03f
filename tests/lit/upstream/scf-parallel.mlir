// scf.parallel, as MLIR's pipelines leave it where --convert-parallel-loops-to-gpu cannot map
// a loop (or before any mapping): on the host and in a kernel, with and without reductions
// (scf.reduce and its regions), and with the #gpu.loop_dim_map mapping the mapper put on it.
// The import runs each as a nest of scf.for that carries the accumulators.
// m[i][j] = 3 i - j over 4x5 (i from 0, j from 0 by steps of 1, and a second loop that adds
// 10 to the even columns, a step of 2); then the sum of m (f32) and the maximum of 7 i - j j
// (i32) by one two-reduction loop; in a kernel, each of 4 threads sums its row of m.
// RUN: gpu-run %s --provider interp | filecheck %s
// RUN: gpu-run %s --provider cpu | filecheck %s
// RUN: gpu-opt %s | filecheck %s --check-prefix=IMPORTED

// CHECK:      sizes = [4, 5] strides = [5, 1] data =
// CHECK-NEXT: {{\[\[}}10,   -1,   8,   -3,   6],
// CHECK-NEXT:  [13,   2,   11,   0,   9],
// CHECK-NEXT:  [16,   5,   14,   3,   12],
// CHECK-NEXT:  [19,   8,   17,   6,   15]]
// CHECK-NEXT: 170
// CHECK-NEXT: 21
// CHECK:      sizes = [4] strides = [1] data =
// CHECK-NEXT: [20,  35,  50,  65]

// IMPORTED:      func.func @launch_kernel(
// IMPORTED:        scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %{{.*}}, %{{.*}} = %m1, %{{.*}} = %m3, %{{.*}} = %m4, %{{.*}} = %m5) -> (f32, !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>)
// IMPORTED:      func.func @main
// IMPORTED:        scf.for
// IMPORTED-NEXT:     scf.for

func.func private @printMemrefF32(memref<*xf32>)
func.func private @printF32(f32)
func.func private @printI64(i64)
func.func private @printNewline()
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %ten = arith.constant 10.0 : f32
  %m = memref.alloc() : memref<4x5xf32>
  %rows = memref.alloc() : memref<4xf32>
  scf.parallel (%i, %j) = (%c0, %c0) to (%c4, %c5) step (%c1, %c1) {
    %t = arith.muli %i, %c3 : index
    %d = arith.subi %t, %j : index
    %di = arith.index_cast %d : index to i32
    %f = arith.sitofp %di : i32 to f32
    memref.store %f, %m[%i, %j] : memref<4x5xf32>
    scf.reduce
  } {mapping = [#gpu.loop_dim_map<processor = block_x, map = (d0) -> (d0), bound = (d0) -> (d0)>, #gpu.loop_dim_map<processor = sequential, map = (d0) -> (d0), bound = (d0) -> (d0)>]}
  scf.parallel (%i, %j) = (%c0, %c0) to (%c4, %c5) step (%c1, %c2) {
    %x = memref.load %m[%i, %j] : memref<4x5xf32>
    %y = arith.addf %x, %ten : f32
    memref.store %y, %m[%i, %j] : memref<4x5xf32>
    scf.reduce
  }
  %zero = arith.constant 0.0 : f32
  %low = arith.constant -1000 : i32
  %c7 = arith.constant 7 : index
  %sum, %max = scf.parallel (%i, %j) = (%c0, %c0) to (%c4, %c5) step (%c1, %c1) init (%zero, %low) -> (f32, i32) {
    %x = memref.load %m[%i, %j] : memref<4x5xf32>
    %s = arith.muli %i, %c7 : index
    %jj = arith.muli %j, %j : index
    %d = arith.subi %s, %jj : index
    %di = arith.index_cast %d : index to i32
    scf.reduce(%x, %di : f32, i32) {
    ^bb0(%lhs: f32, %rhs: f32):
      %r = arith.addf %lhs, %rhs : f32
      scf.reduce.return %r : f32
    }, {
    ^bb0(%lhs: i32, %rhs: i32):
      %r = arith.maxsi %lhs, %rhs : i32
      scf.reduce.return %r : i32
    }
  }
  %hm = memref.cast %m : memref<4x5xf32> to memref<*xf32>
  %hr = memref.cast %rows : memref<4xf32> to memref<*xf32>
  call @printMemrefF32(%hm) : (memref<*xf32>) -> ()
  call @printF32(%sum) : (f32) -> ()
  call @printNewline() : () -> ()
  %max64 = arith.extsi %max : i32 to i64
  call @printI64(%max64) : (i64) -> ()
  call @printNewline() : () -> ()
  gpu.host_register %hm : memref<*xf32>
  gpu.host_register %hr : memref<*xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    %row = scf.parallel (%j) = (%c0) to (%c5) step (%c1) init (%zero) -> f32 {
      %x = memref.load %m[%tx, %j] : memref<4x5xf32>
      scf.reduce(%x : f32) {
      ^bb0(%lhs: f32, %rhs: f32):
        %r = arith.addf %lhs, %rhs : f32
        scf.reduce.return %r : f32
      }
    }
    memref.store %row, %rows[%tx] : memref<4xf32>
    gpu.terminator
  }
  call @printMemrefF32(%hr) : (memref<*xf32>) -> ()
  return
}
