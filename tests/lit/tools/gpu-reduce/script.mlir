// gpu-reduce --test: llvm-reduce's interface. The test gets the candidate's path as its last
// argument and exit 0 means "still interesting"; here `grep -q arith.muli` keeps a muli.
// RUN: gpu-reduce %s --test grep --test-arg=-q --test-arg=arith.muli -o %t.mlir 2> %t.log
// RUN: gpu-opt %t.mlir | filecheck %s

// CHECK:      builtin.module {
// CHECK-NEXT:   func.func @main(
// CHECK:          arith.muli
// CHECK-NOT:      gpu.launch
// CHECK-NOT:      func.call

func.func @twice(%x: i32) -> i32 {
  %two = arith.constant 2 : i32
  %y = arith.muli %x, %two : i32
  func.return %y : i32
}

func.func @main(%m: !mem.M<0>) -> (!mem.M<0>, i32) {
  %h0, %host = mem.alloc %m : !mem.ptr<!mem.array<4 x i32>, 0>
  %zero = arith.constant 0 : index
  %four = arith.constant 4 : index
  %one = arith.constant 1 : index
  %h1 = scf.for %k = %zero to %four step %one iter_args(%t = %h0) -> (!mem.M<0>) {
    %e = mem.lea %host, %k : !mem.ptr<!mem.array<4 x i32>, 0>
    %i = arith.index_cast %k : index to i32
    %v = func.call @twice(%i) : (i32) -> i32
    %t1 = mem.store %t, %e, %v : !mem.ptr<i32, 0>
    scf.yield %t1 : !mem.M<0>
  }
  %e0 = mem.lea %host, %zero : !mem.ptr<!mem.array<4 x i32>, 0>
  %h2, %x = mem.load %h1, %e0 : !mem.ptr<i32, 0>
  %h3 = mem.free %h2, %host : !mem.ptr<!mem.array<4 x i32>, 0>
  %c = arith.constant 3 : i32
  %big = arith.cmpi sgt, %x, %c : i32
  %r = scf.if %big -> (i32) {
    %s = arith.muli %x, %x : i32
    scf.yield %s : i32
  } else {
    scf.yield %x : i32
  }
  func.return %h3, %r : !mem.M<0>, i32
}
