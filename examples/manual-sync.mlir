// A barrier by hand (after MimIR's lit/gpu/manual_sync_kernel): each work-item writes its item
// id into a shared array (one per work-group), the group syncs with gpu.sync_work_items, and
// item 1 reads the element 3 - 1 = 2 written by item 2 and stores it in global memory. main
// returns that value, 2. (Item 1 of every group stores the same value.)
//
//   gpu-opt examples/manual-sync.mlir -p gpu-pipeline

func.func @kernel(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
                  %group: index, %item: index, %data: !mem.ptr<i32, 1>)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
  %a3, %shared = mem.slot %m3 : !mem.ptr<!mem.array<4 x i32>, 3>
  %mine = mem.lea %shared, %item : !mem.ptr<!mem.array<4 x i32>, 3>
  %id = arith.index_cast %item : index to i32
  %b3 = mem.store %a3, %mine, %id : !mem.ptr<i32, 3>
  %c1, %c3 = gpu.sync_work_items %m1, %b3
  %three = arith.constant 3 : index
  %mirror = arith.subi %three, %item : index
  %theirs = mem.lea %shared, %mirror : !mem.ptr<!mem.array<4 x i32>, 3>
  %d3, %v = mem.load %c3, %theirs : !mem.ptr<i32, 3>
  %one = arith.constant 1 : index
  %is_one = arith.cmpi eq, %item, %one : index
  %e1 = scf.if %is_one -> (!mem.M<1>) {
    %stored = mem.store %c1, %data, %v : !mem.ptr<i32, 1>
    scf.yield %stored : !mem.M<1>
  } else {
    scf.yield %c1 : !mem.M<1>
  }
  func.return %e1, %d3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}

func.func @main(%m: !mem.M<0>, %x: i32) -> (!mem.M<0>, i32) {
  %a0, %host = mem.alloc %m : !mem.ptr<i32, 0>
  %b0 = mem.store %a0, %host, %x : !mem.ptr<i32, 0>
  %m0, %m1, %m4 = gpu.init %b0
  %a1, %dev = mem.alloc %m1 : !mem.ptr<i32, 1>
  %c0, %b1 = gpu.copy_to_device.block %m0, %a1, %host -> %dev : !mem.ptr<i32, 0> -> !mem.ptr<i32, 1>
  %stream = gpu.default_stream
  %four = arith.constant 4 : index
  %l0, %l1, %l4 = gpu.launch @kernel grid(%four, %four) stream(%stream) mems(%c0, %b1, %m4)
      args(%dev) : (!mem.ptr<i32, 1>)
  %d0, %d1 = gpu.copy_to_host.block %l0, %l1, %dev -> %host : !mem.ptr<i32, 1> -> !mem.ptr<i32, 0>
  %e1 = mem.free %d1, %dev : !mem.ptr<i32, 1>
  %e0 = gpu.deinit %d0, %e1, %l4
  %f0, %v = mem.load %e0, %host : !mem.ptr<i32, 0>
  %done = mem.free %f0, %host : !mem.ptr<i32, 0>
  func.return %done, %v : !mem.M<0>, i32
}
