// A launch of 8 blocks on one stream whose every block spins until a flag is set, and a launch of
// 8 blocks on another stream whose last block sets it. On the cpu provider the first launch
// holds the thread pool while its blocks spin, so the second runs its blocks on its stream's
// own thread instead of waiting for the pool (which would never be free). Each spinning block
// then stores 100 + its id; the setter's blocks store their id.
// RUN: gpu-run %s --provider interp | filecheck %s
// RUN: gpu-run %s --provider cpu | filecheck %s
// RUN: env GPUIR_CPU_THREADS=2 gpu-run %s --provider cpu | filecheck %s
// RUN: env GPUIR_CPU_THREADS=4 gpu-run %s --provider cpu | filecheck %s

// CHECK:      [100,  101,  102,  103,  104,  105,  106,  107,  0,  1,  2,  3,  4,  5,  6,  7]

module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @wait_then_store(%flag: memref<i32>, %out: memref<16xi32>) kernel {
      %zero = arith.constant 0 : i32
      %hundred = arith.constant 100 : i32
      scf.while : () -> () {
        %f = memref.atomic_rmw addi %zero, %flag[] : (i32, memref<i32>) -> i32
        %unset = arith.cmpi eq, %f, %zero : i32
        scf.condition(%unset)
      } do {
        scf.yield
      }
      %b = gpu.block_id x
      %bi = arith.index_cast %b : index to i32
      %v = arith.addi %bi, %hundred : i32
      memref.store %v, %out[%b] : memref<16xi32>
      gpu.return
    }
    gpu.func @store_then_set(%flag: memref<i32>, %out: memref<16xi32>) kernel {
      %one = arith.constant 1 : i32
      %c7 = arith.constant 7 : index
      %c8 = arith.constant 8 : index
      %b = gpu.block_id x
      %bi = arith.index_cast %b : index to i32
      %at = arith.addi %b, %c8 : index
      memref.store %bi, %out[%at] : memref<16xi32>
      %last = arith.cmpi eq, %b, %c7 : index
      scf.if %last {
        %old = memref.atomic_rmw assign %one, %flag[] : (i32, memref<i32>) -> i32
      }
      gpu.return
    }
  }

  func.func private @printMemrefI32(memref<*xi32>)

  func.func @main() {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %zero = arith.constant 0 : i32
    %flag = gpu.alloc host_shared () : memref<i32>
    %out = gpu.alloc host_shared () : memref<16xi32>
    memref.store %zero, %flag[] : memref<i32>
    %s1 = gpu.wait async
    %s2 = gpu.wait async
    %a = gpu.launch_func async [%s1] @k::@wait_then_store blocks in (%c8, %c1, %c1)
        threads in (%c1, %c1, %c1) args(%flag : memref<i32>, %out : memref<16xi32>)
    %b = gpu.launch_func async [%s2] @k::@store_then_set blocks in (%c8, %c1, %c1)
        threads in (%c1, %c1, %c1) args(%flag : memref<i32>, %out : memref<16xi32>)
    gpu.wait [%a, %b]
    %u = memref.cast %out : memref<16xi32> to memref<*xi32>
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    return
  }
}
