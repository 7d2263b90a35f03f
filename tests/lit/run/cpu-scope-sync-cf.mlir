// MimIR's lit/gpu/scope_sync_kernel as it is written there: a leading barrier, two synced
// scopes, then a cf.cond_br to a store or a return (examples/scoped-sync.mlir has it with
// scf.if). interp and cpu agree: item 1 of each group stores the value it read, 2.
// RUN: gpu-run %s --provider interp 9 | filecheck %s
// RUN: gpu-run %s --provider cpu 9 | filecheck %s

// CHECK:      2
// CHECK-EMPTY:

func.func @kernel(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
                  %group: index, %item: index, %data: !mem.ptr<i32, 1>)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
  %a1, %a3 = gpu.sync_work_items %m1, %m3
  %b3, %shared = mem.slot %a3 : !mem.ptr<!mem.array<4 x i32>, 3>
  %b1, %local = mem.alloc %a1 : !mem.ptr<i32, 1>
  %c1, %c3 = gpu.synced_scope %b1, %b3 {
  ^bb0(%x1: !mem.M<1>, %x3: !mem.M<3>):
    %mine = mem.lea %shared, %item : !mem.ptr<!mem.array<4 x i32>, 3>
    %id = arith.index_cast %item : index to i32
    %y3 = mem.store %x3, %mine, %id : !mem.ptr<i32, 3>
    gpu.yield %x1, %y3 : !mem.M<1>, !mem.M<3>
  }
  %d1, %d3 = gpu.synced_scope %c1, %c3 {
  ^bb0(%x1: !mem.M<1>, %x3: !mem.M<3>):
    %three = arith.constant 3 : index
    %mirror = arith.subi %three, %item : index
    %theirs = mem.lea %shared, %mirror : !mem.ptr<!mem.array<4 x i32>, 3>
    %y3, %v = mem.load %x3, %theirs : !mem.ptr<i32, 3>
    %y1 = mem.store %x1, %local, %v : !mem.ptr<i32, 1>
    gpu.yield %y1, %y3 : !mem.M<1>, !mem.M<3>
  }
  %e1, %val = mem.load %d1, %local : !mem.ptr<i32, 1>
  %f1 = mem.free %e1, %local : !mem.ptr<i32, 1>
  %one = arith.constant 1 : index
  %is_one = arith.cmpi eq, %item, %one : index
  cf.cond_br %is_one, ^store, ^done
^store:
  %stored = mem.store %f1, %data, %val : !mem.ptr<i32, 1>
  func.return %stored, %d3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
^done:
  func.return %f1, %d3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
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
