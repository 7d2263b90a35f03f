// gpu-reduce --disagree: the host reads past an array; interp stops with `out of bounds`,
// cpu runs unchecked machine code and returns what it finds, so the two differ. What is
// left keeps the out-of-bounds load.
// RUN: gpu-reduce %s --disagree cpu,interp -o %t.mlir 2> %t.log
// RUN: gpu-opt %t.mlir | filecheck %s
// RUN: not gpu-run %t.mlir --provider interp 2>&1 | filecheck %s --check-prefix=INTERP

// CHECK:      func.func @main(
// CHECK:        mem.alloc
// CHECK:        mem.lea
// CHECK:        mem.load
// CHECK-NOT:  mem.store
// CHECK-NOT:  array<4 x

// INTERP: error: out of bounds

func.func @main(%m: !mem.M<0>) -> (!mem.M<0>, i32) {
  %h0, %host = mem.alloc %m : !mem.ptr<!mem.array<4 x i32>, 0>
  %zero = arith.constant 0 : index
  %first = mem.lea %host, %zero : !mem.ptr<!mem.array<4 x i32>, 0>
  %seven = arith.constant 7 : i32
  %h1 = mem.store %h0, %first, %seven : !mem.ptr<i32, 0>
  %five = arith.constant 5 : index
  %e = mem.lea %host, %five : !mem.ptr<!mem.array<4 x i32>, 0>
  %h2, %x = mem.load %h1, %e : !mem.ptr<i32, 0>
  %y = arith.addi %x, %seven : i32
  func.return %h2, %y : !mem.M<0>, i32
}
