// Two launches on two async streams that wait for each other: no token orders them, so they
// must run at the same time. @bump adds its amount to a counter in host_shared memory, then
// spins (an atomic read in an scf.while without iteration values) until the counter is the sum
// of both amounts, 1 + 10 = 11, and records what it saw. Run one after the other, the first
// would wait forever. Then the host prints the counter (11) and each launch's reading (11 11).
// RUN: gpu-run %s --provider interp | filecheck %s
// RUN: gpu-run %s --provider cpu | filecheck %s
// RUN: gpu-run %s --provider cpu --interpret-host | filecheck %s
// RUN: gpu-opt %s | filecheck %s --check-prefix=IMPORTED
// A native executable's runtime runs streams one after another: it is refused.
// RUN: not gpu-run %s --emit-executable %t.exe 2>&1 | filecheck %s --check-prefix=NATIVE
// NATIVE: gpu-run: error: cannot make a native executable of {{.*}}streams-wait-for-each-other.mlir: a program that makes streams has atomics, with which its kernels may wait for each other: the C runtime runs streams one after another, not at once

// CHECK:      11
// CHECK-NEXT: Unranked Memref base@ = {{0x[0-9a-f]+}} rank = 1 offset = 0 sizes = [2] strides = [1] data =
// CHECK-NEXT: [11,  11]

// Each launch on a stream of its own; the host waits for both and destroys them, then copies
// the host_shared memory back once.
// IMPORTED:      gpu.stream_init
// IMPORTED:      %{{.*}}, %[[A:.*]] = mem.load
// IMPORTED:      gpu.stream_init
// IMPORTED:      %{{.*}}, %[[B:.*]] = mem.load
// IMPORTED:      gpu.launch @bump grid({{.*}}) stream(%[[A]])
// IMPORTED-NOT:  gpu.copy
// IMPORTED:      gpu.launch @bump grid({{.*}}) stream(%[[B]])
// IMPORTED-NEXT: gpu.stream_deinit {{.*}}, %[[A]]
// IMPORTED-NEXT: gpu.stream_deinit {{.*}}, %[[B]]
// IMPORTED-NEXT: gpu.copy_to_host.block

module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @bump(%counter: memref<i32>, %seen: memref<2xi32>, %amount: i32, %slot: index) kernel {
      %zero = arith.constant 0 : i32
      %total = arith.constant 11 : i32
      %before = memref.atomic_rmw addi %amount, %counter[] : (i32, memref<i32>) -> i32
      scf.while : () -> () {
        %now = memref.atomic_rmw addi %zero, %counter[] : (i32, memref<i32>) -> i32
        %short = arith.cmpi slt, %now, %total : i32
        scf.condition(%short)
      } do {
        scf.yield
      }
      %last = memref.atomic_rmw addi %zero, %counter[] : (i32, memref<i32>) -> i32
      memref.store %last, %seen[%slot] : memref<2xi32>
      gpu.return
    }
  }

  func.func private @printMemrefI32(memref<*xi32>)
  func.func private @printI64(i64)
  func.func private @printNewline()

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %zero = arith.constant 0 : i32
    %one = arith.constant 1 : i32
    %ten = arith.constant 10 : i32
    %counter = gpu.alloc host_shared () : memref<i32>
    %seen = gpu.alloc host_shared () : memref<2xi32>
    memref.store %zero, %counter[] : memref<i32>
    %s1 = gpu.wait async
    %s2 = gpu.wait async
    %a = gpu.launch_func async [%s1] @k::@bump blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%counter : memref<i32>, %seen : memref<2xi32>, %one : i32, %c0 : index)
    %b = gpu.launch_func async [%s2] @k::@bump blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%counter : memref<i32>, %seen : memref<2xi32>, %ten : i32, %c1 : index)
    gpu.wait [%a, %b]
    %v = memref.load %counter[] : memref<i32>
    %v64 = arith.extsi %v : i32 to i64
    call @printI64(%v64) : (i64) -> ()
    call @printNewline() : () -> ()
    %u = memref.cast %seen : memref<2xi32> to memref<*xi32>
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    return
  }
}
