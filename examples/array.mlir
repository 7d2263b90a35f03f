// The array program (after MimIR's lit/gpu/array): a kernel writes item_id * 10 into each
// element of a 4-element device array; the host copies it back and returns the sum (60).
//
//   gpu-opt examples/array.mlir                      # parse, verify, pretty-print
//   gpu-opt examples/array.mlir --print-op-generic   # the generic form of IR.md

func.func @array_kernel(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
                        %group: index, %item: index,
                        %arr: !mem.ptr<!mem.array<4 x i32>, 1>)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
  %elem = mem.lea %arr, %item : !mem.ptr<!mem.array<4 x i32>, 1>
  %i = arith.index_cast %item : index to i32
  %ten = arith.constant 10 : i32
  %v = arith.muli %i, %ten : i32
  %m1b = mem.store %m1, %elem, %v : !mem.ptr<i32, 1>
  func.return %m1b, %m3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}

func.func @main(%m: !mem.M<0>) -> (!mem.M<0>, i32) {
  %m0, %m1, %m4 = gpu.init %m
  %h0, %host = mem.alloc %m0 : !mem.ptr<!mem.array<4 x i32>, 0>
  %d1, %dev = gpu.alloc.block %m1 : !mem.ptr<!mem.array<4 x i32>, 1>
  %stream = gpu.default_stream
  %one = arith.constant 1 : index
  %four = arith.constant 4 : index
  %l0, %l1, %l4 = gpu.launch @array_kernel grid(%one, %four) stream(%stream)
      mems(%h0, %d1, %m4) args(%dev) : (!mem.ptr<!mem.array<4 x i32>, 1>)
  %c0, %c1 = gpu.copy_to_host.block %l0, %l1, %dev -> %host
      : !mem.ptr<!mem.array<4 x i32>, 1> -> !mem.ptr<!mem.array<4 x i32>, 0>
  %zero = arith.constant 0 : index
  %init = arith.constant 0 : i32
  %s0, %sum = scf.for %k = %zero to %four step %one
      iter_args(%tok = %c0, %acc = %init) -> (!mem.M<0>, i32) {
    %e = mem.lea %host, %k : !mem.ptr<!mem.array<4 x i32>, 0>
    %tok2, %x = mem.load %tok, %e : !mem.ptr<i32, 0>
    %acc2 = arith.addi %acc, %x : i32
    scf.yield %tok2, %acc2 : !mem.M<0>, i32
  }
  %f1 = gpu.free.block %c1, %dev : !mem.ptr<!mem.array<4 x i32>, 1>
  %f0 = mem.free %s0, %host : !mem.ptr<!mem.array<4 x i32>, 0>
  %done = gpu.deinit %f0, %f1, %l4
  func.return %done, %sum : !mem.M<0>, i32
}
