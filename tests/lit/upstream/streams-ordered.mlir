// A second stream ordered after the first by a dependency (`gpu.wait async [%a]`, where a GPU
// waits for an event of the first stream): @put stores 5 on the first stream, @triple reads it
// on the second and stores 3 · 5 = 15 next to it. The host waits for the first stream before it
// puts work on the second, so the read sees the store (interp's stream-order check finds no
// unordered access), and the memory is copied back once, after both: [5, 15].
// RUN: gpu-run %s --provider interp | filecheck %s
// RUN: gpu-run %s --provider cpu | filecheck %s
// RUN: gpu-opt %s | filecheck %s --check-prefix=IMPORTED

// CHECK:      Unranked Memref base@ = {{0x[0-9a-f]+}} rank = 1 offset = 0 sizes = [2] strides = [1] data =
// CHECK-NEXT: [5,  15]

// IMPORTED:      gpu.launch @put grid({{.*}}) stream(%[[A:[^)]*]])
// IMPORTED-NEXT: gpu.stream_sync {{.*}}, %[[A]]
// IMPORTED:      gpu.stream_init
// IMPORTED:      %{{.*}}, %[[B:.*]] = mem.load
// IMPORTED:      gpu.launch @triple grid({{.*}}) stream(%[[B]])
// IMPORTED-NEXT: gpu.stream_deinit {{.*}}, %[[B]]
// IMPORTED-NEXT: gpu.copy_to_host.block

module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @put(%m: memref<2xi32>) kernel {
      %c0 = arith.constant 0 : index
      %five = arith.constant 5 : i32
      memref.store %five, %m[%c0] : memref<2xi32>
      gpu.return
    }
    gpu.func @triple(%m: memref<2xi32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %three = arith.constant 3 : i32
      %x = memref.load %m[%c0] : memref<2xi32>
      %y = arith.muli %x, %three : i32
      memref.store %y, %m[%c1] : memref<2xi32>
      gpu.return
    }
  }

  func.func private @printMemrefI32(memref<*xi32>)

  func.func @main() {
    %c1 = arith.constant 1 : index
    %m = gpu.alloc host_shared () : memref<2xi32>
    %s = gpu.wait async
    %a = gpu.launch_func async [%s] @k::@put blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%m : memref<2xi32>)
    %after = gpu.wait async [%a]
    %b = gpu.launch_func async [%after] @k::@triple blocks in (%c1, %c1, %c1)
        threads in (%c1, %c1, %c1) args(%m : memref<2xi32>)
    gpu.wait [%b]
    %u = memref.cast %m : memref<2xi32> to memref<*xi32>
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    return
  }
}
