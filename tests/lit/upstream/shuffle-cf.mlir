// cf blocks in a kernel (the branch on gpu.shuffle's valid flag that MLIR's shuffle test makes)
// and gpu.all_reduce in its region form: every block passes the memory tokens on. 8 threads,
// segments of 6 lanes: a lane whose xor-4 partner is outside its segment stores -1. The sum of
// the 8 thread ids is 28.
// RUN: gpu-run %s --provider interp | filecheck %s
// RUN: gpu-run %s --provider cpu | filecheck %s
// RUN: gpu-opt %s | filecheck %s --check-prefix=IMPORTED

// CHECK:      Unranked Memref base@ = {{0x[0-9a-f]+}} rank = 1 offset = 0 sizes = [8] strides = [1] data =
// CHECK-NEXT: [4,  5,  -1,  -1,  0,  1,  -1,  -1]
// CHECK-NEXT: Unranked Memref base@ = {{0x[0-9a-f]+}} rank = 1 offset = 0 sizes = [1] strides = [1] data =
// CHECK-NEXT: [28]
// CHECK-EMPTY:

// IMPORTED:      cf.cond_br %valid, ^{{.*}}(%shfl, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : f32, !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>), ^{{.*}}(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>)
// IMPORTED:      gpu.workgroup_reduce "add"

func.func private @printMemrefF32(memref<*xf32>)
func.func @main() {
  %c1 = arith.constant 1 : index
  %sx = arith.constant 8 : index
  %dst = memref.alloc(%sx) : memref<?xf32>
  %sums = memref.alloc() : memref<1xf32>
  %cast = memref.cast %dst : memref<?xf32> to memref<*xf32>
  gpu.host_register %cast : memref<*xf32>
  %cs = memref.cast %sums : memref<1xf32> to memref<*xf32>
  gpu.host_register %cs : memref<*xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%grid_x = %c1, %grid_y = %c1, %grid_z = %c1)
             threads(%tx, %ty, %tz) in (%block_x = %sx, %block_y = %c1, %block_z = %c1) {
    %t0 = arith.index_cast %tx : index to i32
    %val = arith.sitofp %t0 : i32 to f32
    %width = arith.constant 6 : i32
    %offset = arith.constant 4 : i32
    %shfl, %valid = gpu.shuffle xor %val, %offset, %width : f32
    cf.cond_br %valid, ^bb1(%shfl : f32), ^bb0
  ^bb0:
    %m1 = arith.constant -1.0 : f32
    cf.br ^bb1(%m1 : f32)
  ^bb1(%value : f32):
    memref.store %value, %dst[%tx] : memref<?xf32>
    %sum = gpu.all_reduce %val {
    ^bb(%lhs : f32, %rhs : f32):
      %s = arith.addf %lhs, %rhs : f32
      "gpu.yield"(%s) : (f32) -> ()
    } : (f32) -> (f32)
    %c0 = arith.constant 0 : index
    memref.store %sum, %sums[%c0] : memref<1xf32>
    gpu.terminator
  }
  call @printMemrefF32(%cast) : (memref<*xf32>) -> ()
  call @printMemrefF32(%cs) : (memref<*xf32>) -> ()
  return
}
