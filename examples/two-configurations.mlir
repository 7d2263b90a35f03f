// One kernel, two launch configurations (after MimIR's lit/gpu/generic_kernel): the kernel
// writes its group id at its place `group * n_items + item` of a 16-element array. Launched as
// 1 group of 16 items every element is 0; launched as 4 groups of 4 items the array holds
// 0,0,0,0, 1,1,1,1, 2,2,2,2, 3,3,3,3. main returns the sum after each launch: 0 and 24.
//
//   gpu-opt examples/two-configurations.mlir -p gpu-pipeline

func.func @group_ids(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
                     %group: index, %item: index,
                     %n_items: index, %out: !mem.ptr<!mem.array<16 x i32>, 1>)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
  %base = arith.muli %group, %n_items : index
  %flat = arith.addi %base, %item : index
  %slot = mem.lea %out, %flat : !mem.ptr<!mem.array<16 x i32>, 1>
  %g = arith.index_cast %group : index to i32
  %a1 = mem.store %m1, %slot, %g : !mem.ptr<i32, 1>
  func.return %a1, %m3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}

func.func @sum(%m: !mem.M<0>, %host: !mem.ptr<!mem.array<16 x i32>, 0>) -> (!mem.M<0>, i32) {
  %zero = arith.constant 0 : index
  %one = arith.constant 1 : index
  %sixteen = arith.constant 16 : index
  %init = arith.constant 0 : i32
  %s0, %sum = scf.for %k = %zero to %sixteen step %one
      iter_args(%tok = %m, %acc = %init) -> (!mem.M<0>, i32) {
    %e = mem.lea %host, %k : !mem.ptr<!mem.array<16 x i32>, 0>
    %tok2, %x = mem.load %tok, %e : !mem.ptr<i32, 0>
    %acc2 = arith.addi %acc, %x : i32
    scf.yield %tok2, %acc2 : !mem.M<0>, i32
  }
  func.return %s0, %sum : !mem.M<0>, i32
}

func.func @main(%m: !mem.M<0>) -> (!mem.M<0>, i32, i32) {
  %m0, %m1, %m4 = gpu.init %m
  %a0, %host = mem.alloc %m0 : !mem.ptr<!mem.array<16 x i32>, 0>
  %a1, %dev = gpu.alloc.block %m1 : !mem.ptr<!mem.array<16 x i32>, 1>
  %stream = gpu.default_stream
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %l0, %l1, %l4 = gpu.launch @group_ids grid(%c1, %c16) stream(%stream) mems(%a0, %a1, %m4)
      args(%c16, %dev) : (index, !mem.ptr<!mem.array<16 x i32>, 1>)
  %b0, %b1 = gpu.copy_to_host.block %l0, %l1, %dev -> %host
      : !mem.ptr<!mem.array<16 x i32>, 1> -> !mem.ptr<!mem.array<16 x i32>, 0>
  %s0, %first = func.call @sum(%b0, %host) : (!mem.M<0>, !mem.ptr<!mem.array<16 x i32>, 0>) -> (!mem.M<0>, i32)
  %n0, %n1, %n4 = gpu.launch @group_ids grid(%c4, %c4) stream(%stream) mems(%s0, %b1, %l4)
      args(%c4, %dev) : (index, !mem.ptr<!mem.array<16 x i32>, 1>)
  %d0, %d1 = gpu.copy_to_host.block %n0, %n1, %dev -> %host
      : !mem.ptr<!mem.array<16 x i32>, 1> -> !mem.ptr<!mem.array<16 x i32>, 0>
  %t0, %second = func.call @sum(%d0, %host) : (!mem.M<0>, !mem.ptr<!mem.array<16 x i32>, 0>) -> (!mem.M<0>, i32)
  %f1 = gpu.free.block %d1, %dev : !mem.ptr<!mem.array<16 x i32>, 1>
  %f0 = mem.free %t0, %host : !mem.ptr<!mem.array<16 x i32>, 0>
  %done = gpu.deinit %f0, %f1, %n4
  func.return %done, %first, %second : !mem.M<0>, i32, i32
}
