// An upstream MLIR GPU program: a gpu.module kernel launched with gpu.launch_func over 3 blocks
// of 4 threads, device memory from gpu.alloc and gpu.memcpy, and printMemrefF32. gpu-run and
// gpu-opt find that it is upstream MLIR by themselves and import it into gpuir's dialects.
// c[i] = a[i] + b[i] = i + i * i for the 10 elements; the 2 threads past the end store nothing.
// RUN: gpu-run %s --provider interp | filecheck %s
// RUN: gpu-run %s --provider cpu | filecheck %s
// RUN: gpu-run %s --provider cpu --check | filecheck %s
// RUN: gpu-run %s --provider cpu --upstream | filecheck %s
// RUN: gpu-opt %s | filecheck %s --check-prefix=IMPORTED

// CHECK:      Unranked Memref base@ = {{0x[0-9a-f]+}} rank = 1 offset = 0 sizes = [10] strides = [1] data =
// CHECK-NEXT: [0,  2,  6,  12,  20,  30,  42,  56,  72,  90]
// CHECK-EMPTY:

// IMPORTED:      func.func @vadd(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>, %group: index, %item: index, %grid_x: index, %grid_y: index, %grid_z: index, %block_x: index, %block_y: index, %block_z: index, %a: !mem.ptr<!mem.array<? x f32>, 1>, %a_extent: index, %b: !mem.ptr<!mem.array<? x f32>, 1>, %b_extent: index, %c: !mem.ptr<!mem.array<? x f32>, 1>, %c_extent: index, %n: index) -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>)
// IMPORTED:        %{{.*}} = arith.remui %group, %grid_x : index
// IMPORTED:        %{{.*}}, %x = mem.load %{{.*}}, %{{.*}} : !mem.ptr<f32, 1>
// IMPORTED:      func.func @main(%m: !mem.M<0>) -> !mem.M<0>
// IMPORTED-NEXT:   %{{.*}}, %{{.*}}, %{{.*}} = gpu.init %m
// IMPORTED:        gpu.alloc.block %{{.*}}, %n : !mem.ptr<!mem.array<? x f32>, 1>
// IMPORTED:        gpu.copy_to_device.block
// IMPORTED:        gpu.launch @vadd grid(%{{.*}}, %{{.*}}) stream(%{{.*}}) mems(%{{.*}}, %{{.*}}, %{{.*}}) args(%groups, %c1, %c1, %c4, %c1, %c1, %{{.*}}, %n, %{{.*}}, %n, %{{.*}}, %n, %n)
// IMPORTED:        mem.print_memref
// IMPORTED:        gpu.deinit

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @vadd(%a: memref<?xf32>, %b: memref<?xf32>, %c: memref<?xf32>, %n: index) kernel {
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %inside = arith.cmpi ult, %i, %n : index
      scf.if %inside {
        %x = memref.load %a[%i] : memref<?xf32>
        %y = memref.load %b[%i] : memref<?xf32>
        %s = arith.addf %x, %y : f32
        memref.store %s, %c[%i] : memref<?xf32>
      }
      gpu.return
    }
  }
  func.func private @printMemrefF32(memref<*xf32>)
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %n = arith.constant 10 : index
    %ha = memref.alloc(%n) : memref<?xf32>
    %hb = memref.alloc(%n) : memref<?xf32>
    scf.for %i = %c0 to %n step %c1 {
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f32
      memref.store %f, %ha[%i] : memref<?xf32>
      %g = arith.mulf %f, %f : f32
      memref.store %g, %hb[%i] : memref<?xf32>
    }
    %da = gpu.alloc(%n) : memref<?xf32>
    %db = gpu.alloc(%n) : memref<?xf32>
    %t0 = gpu.wait async
    %dc, %t1 = gpu.alloc async [%t0] (%n) : memref<?xf32>
    gpu.memcpy %da, %ha : memref<?xf32>, memref<?xf32>
    %t2 = gpu.memcpy async [%t1] %db, %hb : memref<?xf32>, memref<?xf32>
    gpu.wait [%t2]
    %groups = arith.constant 3 : index
    gpu.launch_func @kernels::@vadd blocks in (%groups, %c1, %c1) threads in (%c4, %c1, %c1)
        args(%da : memref<?xf32>, %db : memref<?xf32>, %dc : memref<?xf32>, %n : index)
    %hc = memref.alloc(%n) : memref<?xf32>
    gpu.memcpy %hc, %dc : memref<?xf32>, memref<?xf32>
    %u = memref.cast %hc : memref<?xf32> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    gpu.dealloc %da : memref<?xf32>
    gpu.dealloc %db : memref<?xf32>
    gpu.dealloc %dc : memref<?xf32>
    memref.dealloc %ha : memref<?xf32>
    memref.dealloc %hb : memref<?xf32>
    memref.dealloc %hc : memref<?xf32>
    return
  }
}
