// Dynamic shared memory (after MimIR's lit/gpu/dyn_smem_kernel): the launch asks for a shared
// array of `? x i32` with one element per work-item (the extent is an operand of the launch).
// Every work-item writes its item id into the shared array, the work-group syncs, and each item
// reads its right neighbour's id (wrapping around) and stores it at its place in a global array
// of 2 x 4 results. main returns the sum of the results: 2 * (1 + 2 + 3 + 0) = 12.
//
//   gpu-opt examples/dynamic-shared-memory.mlir -p gpu-pipeline

func.func @neighbours(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
                      %group: index, %item: index,
                      %smem: !mem.ptr<!mem.array<? x i32>, 3>,
                      %n_items: index, %out: !mem.ptr<!mem.array<8 x i32>, 1>)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
  %mine = mem.lea %smem, %item : !mem.ptr<!mem.array<? x i32>, 3>
  %id = arith.index_cast %item : index to i32
  %a3 = mem.store %m3, %mine, %id : !mem.ptr<i32, 3>
  %b1, %b3 = gpu.sync_work_items %m1, %a3
  %one = arith.constant 1 : index
  %next = arith.addi %item, %one : index
  %right = arith.remui %next, %n_items : index
  %theirs = mem.lea %smem, %right : !mem.ptr<!mem.array<? x i32>, 3>
  %c3, %v = mem.load %b3, %theirs : !mem.ptr<i32, 3>
  %base = arith.muli %group, %n_items : index
  %flat = arith.addi %base, %item : index
  %slot = mem.lea %out, %flat : !mem.ptr<!mem.array<8 x i32>, 1>
  %c1 = mem.store %b1, %slot, %v : !mem.ptr<i32, 1>
  func.return %c1, %c3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}

func.func @main(%m: !mem.M<0>) -> (!mem.M<0>, i32) {
  %m0, %m1, %m4 = gpu.init %m
  %a0, %host = mem.alloc %m0 : !mem.ptr<!mem.array<8 x i32>, 0>
  %a1, %dev = gpu.alloc.block %m1 : !mem.ptr<!mem.array<8 x i32>, 1>
  %stream = gpu.default_stream
  %groups = arith.constant 2 : index
  %items = arith.constant 4 : index
  %l0, %l1, %l4 = gpu.launch @neighbours grid(%groups, %items) stream(%stream)
      smem(!mem.array<? x i32>, %items) mems(%a0, %a1, %m4)
      args(%items, %dev) : (index, !mem.ptr<!mem.array<8 x i32>, 1>)
  %c0, %c1 = gpu.copy_to_host.block %l0, %l1, %dev -> %host
      : !mem.ptr<!mem.array<8 x i32>, 1> -> !mem.ptr<!mem.array<8 x i32>, 0>
  %zero = arith.constant 0 : index
  %one = arith.constant 1 : index
  %eight = arith.constant 8 : index
  %init = arith.constant 0 : i32
  %s0, %sum = scf.for %k = %zero to %eight step %one
      iter_args(%tok = %c0, %acc = %init) -> (!mem.M<0>, i32) {
    %e = mem.lea %host, %k : !mem.ptr<!mem.array<8 x i32>, 0>
    %tok2, %x = mem.load %tok, %e : !mem.ptr<i32, 0>
    %acc2 = arith.addi %acc, %x : i32
    scf.yield %tok2, %acc2 : !mem.M<0>, i32
  }
  %f1 = gpu.free.block %c1, %dev : !mem.ptr<!mem.array<8 x i32>, 1>
  %f0 = mem.free %s0, %host : !mem.ptr<!mem.array<8 x i32>, 0>
  %done = gpu.deinit %f0, %f1, %l4
  func.return %done, %sum : !mem.M<0>, i32
}
