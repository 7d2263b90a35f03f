// A kernel's shared memory (mem.slot in space 3) is a workgroup attribution, its barrier
// gpu.barrier, its atomics memref.atomic_rmw; warp shuffles, lane ids and work-group
// reductions are the gpu dialect's. Both round trips print what the originals print.
// RUN: gpu-opt %S/../../../../examples/histogram.mlir -t mlir-upstream | filecheck %s
// RUN: gpu-opt %S/../../../../examples/warp-reduce.mlir -t mlir-upstream | filecheck %s --check-prefix=WARP
// RUN: gpu-opt %S/../../../../examples/global-sum.mlir -t mlir-upstream | filecheck %s --check-prefix=REDUCE
// RUN: gpu-opt %S/../../../../examples/histogram.mlir -t mlir-upstream | gpu-run - --provider interp 2000 | filecheck %s --check-prefix=HIST
// RUN: gpu-opt %S/../../../../examples/histogram.mlir -t mlir-upstream | gpu-run - --provider cpu 2000 | filecheck %s --check-prefix=HIST

// CHECK:      gpu.func @histogram(%n_items: index, %n: index, %values: memref<?xi32>, %bins: memref<256xi32>) workgroup(%local : memref<256xi32, #gpu.address_space<workgroup>>) kernel {
// CHECK-NEXT:   %group = gpu.block_id x
// CHECK-NEXT:   %item = gpu.thread_id x
// CHECK:        memref.store %zero, %local[%item] : memref<256xi32, #gpu.address_space<workgroup>>
// CHECK-NEXT:   gpu.barrier
// CHECK:        memref.atomic_rmw addi %one, %local[%{{.*}}] : (i32, memref<256xi32, #gpu.address_space<workgroup>>) -> i32
// CHECK:        func.func @main(%n: index) -> (i32, i32, i32, i32, i32) {
// CHECK:        %values, %{{.*}} = gpu.alloc async [%{{.*}}] (%n) : memref<?xi32>

// WARP:       gpu.shuffle down %x0, %o16, %width : i64
// WARP:       %lane = gpu.lane_id

// REDUCE:     gpu.all_reduce add %{{.*}} {} : (i64) -> (i64)

// HIST:       {{^}}2000{{$}}
