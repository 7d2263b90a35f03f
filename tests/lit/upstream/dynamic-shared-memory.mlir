// Dynamic shared memory as MLIR writes it: gpu.dynamic_shared_memory gives the launch's bytes
// (dynamic_shared_memory_size, on gpu.launch_func and on the gpu.launch region form), and
// memref.view sees them as floats: %a, 8 of them at byte 0 (a dynamic size), %b, 8 more at
// byte 32. Each of 8 threads stores x = t to a[t] and 2x to b[t], syncs, and stores
// a[7 - t] + b[(t + 1) mod 8] = (7 - t) + 2 ((t + 1) mod 8): 9, 10, …, 15, 0. The region form
// (one view, 8 floats at byte 0) stores a[7 - t] after the same sync: 7, 6, …, 0.
// RUN: gpu-run %s --provider interp | filecheck %s
// RUN: gpu-run %s --provider cpu | filecheck %s
// RUN: gpu-opt %s | filecheck %s --check-prefix=IMPORTED

// CHECK:      rank = 1 offset = 0 sizes = [8] strides = [1] data =
// CHECK-NEXT: [9,  10,  11,  12,  13,  14,  15,  0]
// CHECK:      rank = 1 offset = 0 sizes = [8] strides = [1] data =
// CHECK-NEXT: [7,  6,  5,  4,  3,  2,  1,  0]

// IMPORTED:      func.func @mix(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>, %group: index, %item: index, %smem: !mem.ptr<!mem.array<? x f32>, 3>, %grid_x: index
// IMPORTED:      func.func @main(
// IMPORTED:        %[[BYTES:.*]] = arith.index_cast %c64_i32 : i32 to index
// IMPORTED:        %[[EXTENT:.*]] = arith.divui %[[BYTES]], %{{.*}} : index
// IMPORTED:        gpu.launch @mix grid({{.*}}) stream(%{{.*}}) smem(!mem.array<? x f32>, %[[EXTENT]])

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @mix(%out: memref<8xf32>, %n: index) kernel {
      %c1 = arith.constant 1 : index
      %c0 = arith.constant 0 : index
      %c32 = arith.constant 32 : index
      %t = gpu.thread_id x
      %bytes = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %a = memref.view %bytes[%c0][%n] : memref<?xi8, #gpu.address_space<workgroup>> to memref<?xf32, #gpu.address_space<workgroup>>
      %b = memref.view %bytes[%c32][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<8xf32, #gpu.address_space<workgroup>>
      %ti = arith.index_cast %t : index to i32
      %x = arith.sitofp %ti : i32 to f32
      %x2 = arith.addf %x, %x : f32
      memref.store %x, %a[%t] : memref<?xf32, #gpu.address_space<workgroup>>
      memref.store %x2, %b[%t] : memref<8xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %last = arith.subi %n, %c1 : index
      %r = arith.subi %last, %t : index
      %t1 = arith.addi %t, %c1 : index
      %s = arith.remui %t1, %n : index
      %u = memref.load %a[%r] : memref<?xf32, #gpu.address_space<workgroup>>
      %v = memref.load %b[%s] : memref<8xf32, #gpu.address_space<workgroup>>
      %w = arith.addf %u, %v : f32
      memref.store %w, %out[%t] : memref<8xf32>
      gpu.return
    }
  }
  func.func private @printMemrefF32(memref<*xf32>)
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c64_i32 = arith.constant 64 : i32
    %c32_i32 = arith.constant 32 : i32
    %m = memref.alloc() : memref<8xf32>
    %h = memref.cast %m : memref<8xf32> to memref<*xf32>
    gpu.host_register %h : memref<*xf32>
    gpu.launch_func @kernels::@mix blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) dynamic_shared_memory_size %c64_i32 args(%m : memref<8xf32>, %c8 : index)
    call @printMemrefF32(%h) : (memref<*xf32>) -> ()
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c1, %sz = %c1)
               dynamic_shared_memory_size %c32_i32 {
      %c0 = arith.constant 0 : index
      %c7 = arith.constant 7 : index
      %bytes = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %a = memref.view %bytes[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<8xf32, #gpu.address_space<workgroup>>
      %ti = arith.index_cast %tx : index to i32
      %x = arith.sitofp %ti : i32 to f32
      memref.store %x, %a[%tx] : memref<8xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %r = arith.subi %c7, %tx : index
      %u = memref.load %a[%r] : memref<8xf32, #gpu.address_space<workgroup>>
      memref.store %u, %m[%tx] : memref<8xf32>
      gpu.terminator
    }
    call @printMemrefF32(%h) : (memref<*xf32>) -> ()
    return
  }
}
