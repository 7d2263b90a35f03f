// MLIR's async dialect as its GPU programs use it: each async.execute runs on a stream of its
// own, after the streams of the tokens and values it depends on. h[i] = i·i (i < 8) goes to the
// device (execute 0); two executes that depend on it (a fork) make b = h + 3 and c = 2·h there;
// the join copies both back and yields b[7] + c[7]; a group of two executes copies b and c back
// again, awaited together.
//   h = 0 1 4 9 16 25 36 49, b = 3 4 7 12 19 28 39 52, c = 0 2 8 18 32 50 72 98, 52 + 98 = 150
// RUN: gpu-run %s --provider interp | filecheck %s
// RUN: gpu-run %s --provider cpu | filecheck %s
// RUN: gpu-opt %s | filecheck %s --check-prefix=IR

// CHECK:      150
// CHECK-NEXT: Unranked Memref base@ = {{0x[0-9a-f]+}} rank = 1 offset = 0 sizes = [8] strides = [1] data =
// CHECK-NEXT: [3,  4,  7,  12,  19,  28,  39,  52]
// CHECK-NEXT: Unranked Memref base@ = {{0x[0-9a-f]+}} rank = 1 offset = 0 sizes = [8] strides = [1] data =
// CHECK-NEXT: [0,  2,  8,  18,  32,  50,  72,  98]
// CHECK-NEXT: Unranked Memref base@ = {{0x[0-9a-f]+}} rank = 1 offset = 0 sizes = [8] strides = [1] data =
// CHECK-NEXT: [3,  4,  7,  12,  19,  28,  39,  52]
// CHECK-NEXT: Unranked Memref base@ = {{0x[0-9a-f]+}} rank = 1 offset = 0 sizes = [8] strides = [1] data =
// CHECK-NEXT: [0,  2,  8,  18,  32,  50,  72,  98]

// The first execute: a stream of its own, the copy on it.
// IR:      gpu.stream_init
// IR:      %{{.*}}, %[[S0:.*]] = mem.load
// IR:      gpu.copy_to_device.asyn {{.*}} on %[[S0]]
// The fork waits for it, then launches on its own stream.
// IR:      gpu.stream_sync {{.*}}, %[[S0]]
// IR:      gpu.stream_init
// IR:      %{{.*}}, %[[S1:.*]] = mem.load
// IR:      gpu.launch @add3 grid({{.*}}) stream(%[[S1]])

module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @add3(%a: memref<8xi32>, %b: memref<8xi32>) kernel {
      %i = gpu.thread_id x
      %v = memref.load %a[%i] : memref<8xi32>
      %c3 = arith.constant 3 : i32
      %w = arith.addi %v, %c3 : i32
      memref.store %w, %b[%i] : memref<8xi32>
      gpu.return
    }
    gpu.func @twice(%a: memref<8xi32>, %c: memref<8xi32>) kernel {
      %i = gpu.thread_id x
      %v = memref.load %a[%i] : memref<8xi32>
      %w = arith.addi %v, %v : i32
      memref.store %w, %c[%i] : memref<8xi32>
      gpu.return
    }
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c7 = arith.constant 7 : index
    %c8 = arith.constant 8 : index
    %h = memref.alloc() : memref<8xi32>
    scf.for %i = %c0 to %c8 step %c1 {
      %sq = arith.muli %i, %i : index
      %v = arith.index_cast %sq : index to i32
      memref.store %v, %h[%i] : memref<8xi32>
    }
    %t0, %fa = async.execute () -> !async.value<memref<8xi32>> {
      %a = gpu.alloc () : memref<8xi32>
      gpu.memcpy %a, %h : memref<8xi32>, memref<8xi32>
      async.yield %a : memref<8xi32>
    }
    %t1, %fb = async.execute [%t0] (%fa as %a : !async.value<memref<8xi32>>) -> !async.value<memref<8xi32>> {
      %b = gpu.alloc () : memref<8xi32>
      gpu.launch_func @k::@add3 blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%a : memref<8xi32>, %b : memref<8xi32>)
      async.yield %b : memref<8xi32>
    }
    %t2, %fc = async.execute [%t0] (%fa as %a : !async.value<memref<8xi32>>) -> !async.value<memref<8xi32>> {
      %c = gpu.alloc () : memref<8xi32>
      gpu.launch_func @k::@twice blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%a : memref<8xi32>, %c : memref<8xi32>)
      async.yield %c : memref<8xi32>
    }
    %ob = memref.alloc() : memref<8xi32>
    %oc = memref.alloc() : memref<8xi32>
    %t3, %fs = async.execute [%t1, %t2] (%fb as %b : !async.value<memref<8xi32>>, %fc as %c : !async.value<memref<8xi32>>) -> !async.value<i32> {
      gpu.memcpy %ob, %b : memref<8xi32>, memref<8xi32>
      gpu.memcpy %oc, %c : memref<8xi32>, memref<8xi32>
      %x = memref.load %ob[%c7] : memref<8xi32>
      %y = memref.load %oc[%c7] : memref<8xi32>
      %s = arith.addi %x, %y : i32
      async.yield %s : i32
    }
    %sum = async.await %fs : !async.value<i32>
    %wide = arith.extsi %sum : i32 to i64
    call @printI64(%wide) : (i64) -> ()
    call @printNewline() : () -> ()
    %ub = memref.cast %ob : memref<8xi32> to memref<*xi32>
    %uc = memref.cast %oc : memref<8xi32> to memref<*xi32>
    call @printMemrefI32(%ub) : (memref<*xi32>) -> ()
    call @printMemrefI32(%uc) : (memref<*xi32>) -> ()

    %pb = memref.alloc() : memref<8xi32>
    %pc = memref.alloc() : memref<8xi32>
    %g = async.create_group %c2 : !async.group
    %t4 = async.execute [%t3] (%fb as %b : !async.value<memref<8xi32>>) {
      gpu.memcpy %pb, %b : memref<8xi32>, memref<8xi32>
      async.yield
    }
    %t5 = async.execute [%t3] (%fc as %c : !async.value<memref<8xi32>>) {
      gpu.memcpy %pc, %c : memref<8xi32>, memref<8xi32>
      async.yield
    }
    %r4 = async.add_to_group %t4, %g : !async.token
    %r5 = async.add_to_group %t5, %g : !async.token
    async.await_all %g
    %upb = memref.cast %pb : memref<8xi32> to memref<*xi32>
    %upc = memref.cast %pc : memref<8xi32> to memref<*xi32>
    call @printMemrefI32(%upb) : (memref<*xi32>) -> ()
    call @printMemrefI32(%upc) : (memref<*xi32>) -> ()
    return
  }
  func.func private @printI64(i64)
  func.func private @printNewline()
  func.func private @printMemrefI32(memref<*xi32>)
}
