// Shared memory as upstream MLIR writes it: a gpu.func's workgroup attribution of type
// memref<8xf32, #gpu.address_space<workgroup>> (a static shared array, mem.slot in space 3),
// and a private memref.alloca (space 5). 8 threads reverse an array through the tile.
// RUN: gpu-run %s --provider interp | filecheck %s
// RUN: gpu-run %s --provider cpu | filecheck %s
// RUN: gpu-run %s --provider cpu --check | filecheck %s
// RUN: gpu-opt %s | filecheck %s --check-prefix=IMPORTED

// CHECK:      Unranked Memref base@ = {{0x[0-9a-f]+}} rank = 1 offset = 0 sizes = [8] strides = [1] data =
// CHECK-NEXT: [7,  6,  5,  4,  3,  2,  1,  0]
// CHECK-EMPTY:

// IMPORTED: %{{.*}}, %tile = mem.slot %m3 : !mem.ptr<!mem.array<8 x f32>, 3>
// IMPORTED: gpu.sync_work_items
// IMPORTED: %{{.*}}, %scratch = mem.slot %{{.*}} : !mem.ptr<!mem.array<1 x f32>, 5>

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @reverse(%data: memref<8xf32>) workgroup(%tile: memref<8xf32, #gpu.address_space<workgroup>>) kernel {
      %t = gpu.thread_id x
      %v = memref.load %data[%t] : memref<8xf32>
      memref.store %v, %tile[%t] : memref<8xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %c7 = arith.constant 7 : index
      %r = arith.subi %c7, %t : index
      %w = memref.load %tile[%r] : memref<8xf32, #gpu.address_space<workgroup>>
      %scratch = memref.alloca() : memref<1xf32, #gpu.address_space<private>>
      %c0 = arith.constant 0 : index
      memref.store %w, %scratch[%c0] : memref<1xf32, #gpu.address_space<private>>
      %x = memref.load %scratch[%c0] : memref<1xf32, #gpu.address_space<private>>
      memref.store %x, %data[%t] : memref<8xf32>
      gpu.return
    }
  }
  func.func private @printMemrefF32(memref<*xf32>)
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %h = memref.alloc() : memref<8xf32>
    scf.for %i = %c0 to %c8 step %c1 {
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f32
      memref.store %f, %h[%i] : memref<8xf32>
    }
    %u = memref.cast %h : memref<8xf32> to memref<*xf32>
    gpu.host_register %u : memref<*xf32>
    gpu.launch_func @kernels::@reverse blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%h : memref<8xf32>)
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    return
  }
}
