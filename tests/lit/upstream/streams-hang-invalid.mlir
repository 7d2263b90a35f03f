// A launch that waits for a counter that no work increments: interp runs the stream's pending
// work where the host waits for it, sees the work-item read the same value again and again
// while no stream's work changes memory, and reports the hang at the read, instead of spinning
// forever (the cpu provider, as a GPU, would wait forever).
// RUN: not timeout 60 gpu-run %s --provider interp 2>&1 | filecheck %s

// CHECK:      streams-hang-invalid.mlir:[[# @LINE + 13]]:9: error: hang: work-item (group 0, item 0) on stream 1 reads 1 at 'mem.atomic_rmw' again and again, and no stream's pending work changes memory (the host waits for them)
// CHECK-NEXT: {{^        %now = memref.atomic_rmw addi %zero, %counter\[\]}}
// CHECK:      streams-hang-invalid.mlir:[[# @LINE + 27]]:5: note: the launch on stream 1
// CHECK-NEXT: {{^    %a = gpu.launch_func async \[%s\] @k::@wait_for_two}}

module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @wait_for_two(%counter: memref<i32>) kernel {
      %zero = arith.constant 0 : i32
      %one = arith.constant 1 : i32
      %two = arith.constant 2 : i32
      %before = memref.atomic_rmw addi %one, %counter[] : (i32, memref<i32>) -> i32
      scf.while : () -> () {
        %now = memref.atomic_rmw addi %zero, %counter[] : (i32, memref<i32>) -> i32
        %short = arith.cmpi slt, %now, %two : i32
        scf.condition(%short)
      } do {
        scf.yield
      }
      gpu.return
    }
  }

  func.func @main() {
    %c1 = arith.constant 1 : index
    %zero = arith.constant 0 : i32
    %counter = gpu.alloc host_shared () : memref<i32>
    memref.store %zero, %counter[] : memref<i32>
    %s = gpu.wait async
    %a = gpu.launch_func async [%s] @k::@wait_for_two blocks in (%c1, %c1, %c1)
        threads in (%c1, %c1, %c1) args(%counter : memref<i32>)
    gpu.wait [%a]
    return
  }
}
