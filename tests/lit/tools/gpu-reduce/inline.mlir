// gpu-reduce inlines calls: the racing store is in a device function the kernel calls, and
// the index math in a host function; both calls give way to the callees' bodies (the tokens
// the device function takes and returns are rethreaded as any value), and the callees go.
// RUN: gpu-reduce %s --race -o %t.mlir 2> %t.log
// RUN: gpu-opt %t.mlir | filecheck %s
// RUN: filecheck %s --check-prefix=LOG < %t.log
// RUN: not gpu-run %t.mlir --provider interp 2>&1 | filecheck %s --check-prefix=RACE

// CHECK-NOT:  func.call
// CHECK-NOT:  @put
// CHECK-NOT:  @scale
// CHECK:      func.func @k(
// CHECK:        mem.store
// CHECK:      gpu.launch @k

// LOG: gpu-reduce: inline calls:

// RACE: error: race on global memory

func.func @put(%m1: !mem.M<1>, %p: !mem.ptr<i32, 1>, %v: i32) -> !mem.M<1> {
  %m1b = mem.store %m1, %p, %v : !mem.ptr<i32, 1>
  func.return %m1b : !mem.M<1>
}

func.func @scale(%i: index) -> i32 {
  %j = arith.index_cast %i : index to i32
  %ten = arith.constant 10 : i32
  %v = arith.muli %j, %ten : i32
  func.return %v : i32
}

func.func @k(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
             %group: index, %item: index, %arr: !mem.ptr<!mem.array<4 x i32>, 1>)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
  %zero = arith.constant 0 : index
  %elem = mem.lea %arr, %zero : !mem.ptr<!mem.array<4 x i32>, 1>
  %v = func.call @scale(%item) : (index) -> i32
  %m1b = func.call @put(%m1, %elem, %v) : (!mem.M<1>, !mem.ptr<i32, 1>, i32) -> !mem.M<1>
  func.return %m1b, %m3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}

func.func @main(%m: !mem.M<0>) -> (!mem.M<0>, i32) {
  %m0, %m1, %m4 = gpu.init %m
  %h0, %host = mem.alloc %m0 : !mem.ptr<!mem.array<4 x i32>, 0>
  %d1, %dev = gpu.alloc.block %m1 : !mem.ptr<!mem.array<4 x i32>, 1>
  %stream = gpu.default_stream
  %one = arith.constant 1 : index
  %four = arith.constant 4 : index
  %l0, %l1, %l4 = gpu.launch @k grid(%one, %four) stream(%stream)
      mems(%h0, %d1, %m4) args(%dev) : (!mem.ptr<!mem.array<4 x i32>, 1>)
  %c0, %c1 = gpu.copy_to_host.block %l0, %l1, %dev -> %host
      : !mem.ptr<!mem.array<4 x i32>, 1> -> !mem.ptr<!mem.array<4 x i32>, 0>
  %zero = arith.constant 0 : index
  %e = mem.lea %host, %zero : !mem.ptr<!mem.array<4 x i32>, 0>
  %c2, %x = mem.load %c0, %e : !mem.ptr<i32, 0>
  %f1 = gpu.free.block %c1, %dev : !mem.ptr<!mem.array<4 x i32>, 1>
  %f0 = mem.free %c2, %host : !mem.ptr<!mem.array<4 x i32>, 0>
  %done = gpu.deinit %f0, %f1, %l4
  func.return %done, %x : !mem.M<0>, i32
}
