// A planted bug: manual-sync without its barrier. Each item writes its id into the group's
// shared array and reads the mirrored element 3 - item, with nothing ordering the two. Items
// run in order (there is no barrier), so item 2's store meets item 1's earlier load.
// RUN: not gpu-run %s --provider interp 2>&1 | filecheck %s

// CHECK:      race-shared.mlir:17:3: error: race on shared memory: work-item (group 0, item 2) writes byte 8 of a 16-byte shared array of group 0 (by 'mem.slot' at {{.*}}race-shared.mlir:14:3), which work-item (group 0, item 1) read ('mem.load' at {{.*}}race-shared.mlir:22:3); no barrier between them
// CHECK-NEXT:   %b3 = mem.store %a3, %mine, %id : !mem.ptr<i32, 3>
// CHECK:      race-shared.mlir:22:3: note: the other access, by work-item (group 0, item 1)
// CHECK-NOT:  Traceback

func.func @kernel(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
                  %group: index, %item: index, %data: !mem.ptr<!mem.array<4 x i32>, 1>)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
  %a3, %shared = mem.slot %m3 : !mem.ptr<!mem.array<4 x i32>, 3>
  %mine = mem.lea %shared, %item : !mem.ptr<!mem.array<4 x i32>, 3>
  %id = arith.index_cast %item : index to i32
  %b3 = mem.store %a3, %mine, %id : !mem.ptr<i32, 3>
  // missing: %c1, %c3 = gpu.sync_work_items %m1, %b3
  %three = arith.constant 3 : index
  %mirror = arith.subi %three, %item : index
  %theirs = mem.lea %shared, %mirror : !mem.ptr<!mem.array<4 x i32>, 3>
  %c3, %v = mem.load %b3, %theirs : !mem.ptr<i32, 3>
  %out = mem.lea %data, %item : !mem.ptr<!mem.array<4 x i32>, 1>
  %c1 = mem.store %m1, %out, %v : !mem.ptr<i32, 1>
  func.return %c1, %c3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}

func.func @main(%m: !mem.M<0>) -> !mem.M<0> {
  %m0, %m1, %m4 = gpu.init %m
  %a1, %dev = gpu.alloc.block %m1 : !mem.ptr<!mem.array<4 x i32>, 1>
  %stream = gpu.default_stream
  %one = arith.constant 1 : index
  %four = arith.constant 4 : index
  %l0, %l1, %l4 = gpu.launch @kernel grid(%one, %four) stream(%stream) mems(%m0, %a1, %m4)
      args(%dev) : (!mem.ptr<!mem.array<4 x i32>, 1>)
  %f1 = gpu.free.block %l1, %dev : !mem.ptr<!mem.array<4 x i32>, 1>
  %done = gpu.deinit %l0, %f1, %l4
  func.return %done : !mem.M<0>
}
