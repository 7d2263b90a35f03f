// The gpu.launch region form on host memory made visible with gpu.host_register, as MLIR's
// CUDA integration tests write it: the body becomes a kernel, the values it uses from outside
// (%data, %three) its arguments; each launch copies the registered memory to the device before
// it runs and back after. Each of 2 blocks of 6 threads (3-D ids from 1-D ones) triples its
// element after a gpu.barrier; 10 i + j becomes 30 i + 3 j.
// RUN: gpu-run %s --provider interp | filecheck %s
// RUN: gpu-run %s --provider cpu | filecheck %s
// RUN: gpu-opt %s | filecheck %s --check-prefix=IMPORTED

// CHECK:      Unranked Memref base@ = {{0x[0-9a-f]+}} rank = 2 offset = 0 sizes = [2, 6] strides = [6, 1] data =
// CHECK-NEXT: {{\[}}[0,   3,   6,   9,   12,   15],
// CHECK-NEXT:  [30,   33,   36,   39,   42,   45]]
// CHECK-EMPTY:

// IMPORTED:      func.func @launch_kernel({{.*}}, %data: !mem.ptr<!mem.array<? x !mem.array<6 x i32>>, 1>, %data_extent: index, %three: i32)
// IMPORTED:        gpu.sync_work_items
// IMPORTED:      func.func @main
// IMPORTED:        %{{.*}}, %[[MIRROR:.*]] = gpu.alloc.block %{{.*}}, %{{.*}} : !mem.ptr<!mem.array<? x !mem.array<6 x i32>>, 1>
// IMPORTED:        gpu.copy_to_device.block %{{.*}}, %{{.*}}, %data -> %[[MIRROR]]
// IMPORTED-NEXT:   gpu.launch @launch_kernel
// IMPORTED-NEXT:   gpu.copy_to_host.block %{{.*}}, %{{.*}}, %[[MIRROR]] -> %data
// IMPORTED:        gpu.free.block %{{.*}}, %[[MIRROR]]

func.func private @printMemrefI32(memref<*xi32>)
func.func @main() {
  %data = memref.alloc() : memref<2x6xi32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c6 = arith.constant 6 : index
  %cast = memref.cast %data : memref<2x6xi32> to memref<*xi32>
  gpu.host_register %cast : memref<*xi32>
  scf.for %i = %c0 to %c2 step %c1 {
    scf.for %j = %c0 to %c6 step %c1 {
      %ii = arith.index_cast %i : index to i32
      %jj = arith.index_cast %j : index to i32
      %ten = arith.constant 10 : i32
      %t = arith.muli %ii, %ten : i32
      %v = arith.addi %t, %jj : i32
      memref.store %v, %data[%i, %j] : memref<2x6xi32>
    }
  }
  %three = arith.constant 3 : i32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c6, %sy = %c1, %sz = %c1) {
    %v = memref.load %data[%bx, %tx] : memref<2x6xi32>
    gpu.barrier
    %w = arith.muli %v, %three : i32
    memref.store %w, %data[%bx, %tx] : memref<2x6xi32>
    gpu.terminator
  }
  call @printMemrefI32(%cast) : (memref<*xi32>) -> ()
  memref.dealloc %data : memref<2x6xi32>
  return
}
