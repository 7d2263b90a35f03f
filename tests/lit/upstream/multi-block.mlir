// Functions of several blocks (cf.cond_br / cf.br between them), called from @main and from a
// kernel, and @main of several blocks itself: each call inlined as blocks of its caller, the
// rest of the caller's block after them, where the callee's returns branch.
// RUN: gpu-run %s --provider interp | filecheck %s
// RUN: gpu-run %s --provider cpu | filecheck %s

// @main stores |-5| = 5 (through @pick) and then i * -5 for i = 1..3 (a loop of blocks):
// [5, -5, -10, -15]. The kernel applies @dpick (x -> |x| + 1) twice to each element:
// 5 -> 6 -> 7, -5 -> 6 -> 7, -10 -> 11 -> 12, -15 -> 16 -> 17.
// CHECK:      Unranked Memref base@ = {{0x[0-9a-f]+}} rank = 1 offset = 0 sizes = [4] strides = [1] data =
// CHECK-NEXT: [7,  7,  12,  17]
// CHECK-EMPTY:

module attributes {gpu.container_module} {
gpu.module @kernels {
  func.func @dpick(%x: i32) -> i32 {
    %c0 = arith.constant 0 : i32
    %neg = arith.cmpi slt, %x, %c0 : i32
    cf.cond_br %neg, ^bb1, ^bb2(%x : i32)
  ^bb1:
    %n = arith.subi %c0, %x : i32
    cf.br ^bb2(%n : i32)
  ^bb2(%r: i32):
    %one = arith.constant 1 : i32
    %s = arith.addi %r, %one : i32
    return %s : i32
  }
  gpu.func @k(%m: memref<4xi32>) kernel {
    %tx = gpu.thread_id x
    %x = memref.load %m[%tx] : memref<4xi32>
    %y = func.call @dpick(%x) : (i32) -> i32
    %z = func.call @dpick(%y) : (i32) -> i32
    memref.store %z, %m[%tx] : memref<4xi32>
    gpu.return
  }
}
func.func private @printMemrefI32(memref<*xi32>)
func.func @pick(%x: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %neg = arith.cmpi slt, %x, %c0 : i32
  cf.cond_br %neg, ^bb1, ^bb2(%x : i32)
^bb1:
  %n = arith.subi %c0, %x : i32
  cf.br ^bb2(%n : i32)
^bb2(%r: i32):
  return %r : i32
}
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %m = memref.alloc() : memref<4xi32>
  %u = memref.cast %m : memref<4xi32> to memref<*xi32>
  gpu.host_register %u : memref<*xi32>
  %k = arith.constant -5 : i32
  %a = func.call @pick(%k) : (i32) -> i32
  memref.store %a, %m[%c0] : memref<4xi32>
  cf.br ^loop(%c1 : index)
^loop(%i: index):
  %more = arith.cmpi slt, %i, %c4 : index
  cf.cond_br %more, ^body, ^done
^body:
  %ii = arith.index_cast %i : index to i32
  %v = arith.muli %ii, %k : i32
  memref.store %v, %m[%i] : memref<4xi32>
  %n = arith.addi %i, %c1 : index
  cf.br ^loop(%n : index)
^done:
  gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%m : memref<4xi32>)
  func.call @printMemrefI32(%u) : (memref<*xi32>) -> ()
  return
}
}
