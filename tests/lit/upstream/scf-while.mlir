// scf.while in MLIR's syntax, with iteration values and without (`scf.while : () -> ()`, whose
// condition reads memory), in a kernel and on the host. Each of 8 threads counts the Collatz
// steps of its id + 1 down to 1 (0 1 7 2 5 8 16 3, by hand); the host then doubles a cell from
// 1 while it is under 100 (1 2 4 … 128: 128), with no iteration value.
// RUN: gpu-run %s --provider interp | filecheck %s
// RUN: gpu-run %s --provider cpu | filecheck %s
// RUN: gpu-opt %s | filecheck %s --check-prefix=IMPORTED
// The imported program reads back and prints the same.
// RUN: gpu-opt %s | gpu-opt | filecheck %s --check-prefix=IMPORTED

// CHECK:      [0,  1,  7,  2,  5,  8,  16,  3]
// CHECK-NEXT: 128

// The loops carry the memory tokens after their own values.
// IMPORTED:      func.func @steps(
// IMPORTED:        scf.while (%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %m1, %{{.*}} = %m3, %{{.*}} = %m4, %{{.*}} = %m5) : (i32, i32, !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) -> (i32, i32, !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>)
// IMPORTED:      func.func @main
// IMPORTED:        scf.while (%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) : (!mem.M<0>, !mem.M<1>, !mem.M<4>) -> (!mem.M<0>, !mem.M<1>, !mem.M<4>)

module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @steps(%out: memref<8xi32>) kernel {
      %tx = gpu.thread_id x
      %c1 = arith.constant 1 : i32
      %c2 = arith.constant 2 : i32
      %c3 = arith.constant 3 : i32
      %c0 = arith.constant 0 : i32
      %t = arith.index_cast %tx : index to i32
      %n = arith.addi %t, %c1 : i32
      %last, %count = scf.while (%x = %n, %k = %c0) : (i32, i32) -> (i32, i32) {
        %more = arith.cmpi sgt, %x, %c1 : i32
        scf.condition(%more) %x, %k : i32, i32
      } do {
      ^bb0(%x: i32, %k: i32):
        %r = arith.remsi %x, %c2 : i32
        %even = arith.cmpi eq, %r, %c0 : i32
        %half = arith.divsi %x, %c2 : i32
        %t3 = arith.muli %x, %c3 : i32
        %up = arith.addi %t3, %c1 : i32
        %next = arith.select %even, %half, %up : i32
        %k1 = arith.addi %k, %c1 : i32
        scf.yield %next, %k1 : i32, i32
      }
      memref.store %count, %out[%tx] : memref<8xi32>
      gpu.return
    }
  }

  func.func private @printMemrefI32(memref<*xi32>)
  func.func private @printI64(i64)
  func.func private @printNewline()

  func.func @main() {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %out = gpu.alloc host_shared () : memref<8xi32>
    gpu.launch_func @k::@steps blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1)
        args(%out : memref<8xi32>)
    %u = memref.cast %out : memref<8xi32> to memref<*xi32>
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    %cell = memref.alloc() : memref<i64>
    %one = arith.constant 1 : i64
    %two = arith.constant 2 : i64
    %limit = arith.constant 100 : i64
    memref.store %one, %cell[] : memref<i64>
    scf.while : () -> () {
      %v = memref.load %cell[] : memref<i64>
      %below = arith.cmpi slt, %v, %limit : i64
      scf.condition(%below)
    } do {
      %v = memref.load %cell[] : memref<i64>
      %d = arith.muli %v, %two : i64
      memref.store %d, %cell[] : memref<i64>
      scf.yield
    }
    %r = memref.load %cell[] : memref<i64>
    call @printI64(%r) : (i64) -> ()
    call @printNewline() : () -> ()
    return
  }
}
