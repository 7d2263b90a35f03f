func.func @add(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
               %group: index, %item: index, %cell: !mem.ptr<i32, 1>)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
  %id = arith.index_cast %item : index to i32
  %one = arith.constant 1 : i32
  %v = arith.addi %id, %one : i32
  %t1, %old = mem.atomic_rmw "add" %m1, %cell, %v : !mem.ptr<i32, 1>
  func.return %t1, %m3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}

func.func @main(%m: !mem.M<0>) -> (!mem.M<0>, i32) {
  %a0, %host = mem.alloc %m : !mem.ptr<i32, 0>
  %zero = arith.constant 0 : i32
  %b0 = mem.store %a0, %host, %zero : !mem.ptr<i32, 0>
  %m0, %m1, %m4 = gpu.init %b0
  %a1, %dev = mem.alloc %m1 : !mem.ptr<i32, 1>
  %c0, %b1 = gpu.copy_to_device.block %m0, %a1, %host -> %dev : !mem.ptr<i32, 0> -> !mem.ptr<i32, 1>
  %stream = gpu.default_stream
  %groups = arith.constant 1 : index
  %items = arith.constant 4 : index
  %l0, %l1, %l4 = gpu.launch @add grid(%groups, %items) stream(%stream) mems(%c0, %b1, %m4)
      args(%dev) : (!mem.ptr<i32, 1>)
  %d0, %d1 = gpu.copy_to_host.block %l0, %l1, %dev -> %host : !mem.ptr<i32, 1> -> !mem.ptr<i32, 0>
  %e1 = mem.free %d1, %dev : !mem.ptr<i32, 1>
  %e0 = gpu.deinit %d0, %e1, %l4
  %f0, %v = mem.load %e0, %host : !mem.ptr<i32, 0>
  %done = mem.free %f0, %host : !mem.ptr<i32, 0>
  func.return %done, %v : !mem.M<0>, i32
}
