// Work-items of different groups are never ordered: item 0 of every group stores its group
// id into out[0]. Group 1's store of 1 meets group 0's store of 0.
// RUN: not gpu-run %s --provider interp 2>&1 | filecheck %s

// CHECK:      race-global.mlir:[[#STORE:]]:5: error: race on global memory: work-item (group 1, item 0) writes byte 0 of a 4-byte global allocation (by 'gpu.alloc.block' at {{.*}}), which work-item (group 0, item 0) wrote a different value to ('mem.store' at {{.*}}race-global.mlir:[[#STORE]]:5); work-items of different groups are never ordered within a launch

func.func @kernel(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
                  %group: index, %item: index, %out: !mem.ptr<i32, 1>)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
  %zero = arith.constant 0 : index
  %first = arith.cmpi eq, %item, %zero : index
  %r1 = scf.if %first -> (!mem.M<1>) {
    %g = arith.index_cast %group : index to i32
    %s1 = mem.store %m1, %out, %g : !mem.ptr<i32, 1>
    scf.yield %s1 : !mem.M<1>
  } else {
    scf.yield %m1 : !mem.M<1>
  }
  func.return %r1, %m3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}

func.func @main(%m: !mem.M<0>) -> !mem.M<0> {
  %m0, %m1, %m4 = gpu.init %m
  %a1, %dev = gpu.alloc.block %m1 : !mem.ptr<i32, 1>
  %stream = gpu.default_stream
  %four = arith.constant 4 : index
  %l0, %l1, %l4 = gpu.launch @kernel grid(%four, %four) stream(%stream) mems(%m0, %a1, %m4)
      args(%dev) : (!mem.ptr<i32, 1>)
  %f1 = gpu.free.block %l1, %dev : !mem.ptr<i32, 1>
  %done = gpu.deinit %l0, %f1, %l4
  func.return %done : !mem.M<0>
}
