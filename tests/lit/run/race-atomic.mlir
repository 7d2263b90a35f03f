// Planted bugs: an atomic and a plain access to the same word by different work-items with no
// barrier between them race (interp says so, naming both and that one is atomic); two atomics
// never race. Argument 0: item 0 reads the counter plainly while the others add to it
// atomically; 1: item 0 stores to it plainly; 2: every item adds atomically (no race).
// RUN: not gpu-run %s --provider interp 0 2>&1 | filecheck %s --check-prefix=READ
// RUN: not gpu-run %s --provider interp 1 2>&1 | filecheck %s --check-prefix=STORE
// RUN: gpu-run %s --provider interp 2 | filecheck %s --check-prefix=CLEAN
// RUN: gpu-run %s --provider cpu 2 | filecheck %s --check-prefix=CLEAN
// READ:  race-atomic.mlir:28:5: error: race on global memory: work-item (group 0, item 1) atomically writes byte 0 of a 4-byte global allocation ({{.*}}), which work-item (group 0, item 0) read ('mem.load' at {{.*}}race-atomic.mlir:32:7); no barrier between them
// STORE: race-atomic.mlir:28:5: error: race on global memory: work-item (group 0, item 1) atomically reads byte 0 of a 4-byte global allocation ({{.*}}), which work-item (group 0, item 0) wrote ('mem.store' at {{.*}}race-atomic.mlir:35:7); no barrier between them
// CLEAN: 4
// CLEAN-EMPTY:

func.func @kernel(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
                  %group: index, %item: index, %how: i32, %cell: !mem.ptr<i32, 1>)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1 : i32
  %two = arith.constant 2 : i32
  %first = arith.cmpi eq, %item, %c0 : index
  %clean = arith.cmpi eq, %how, %two : i32
  %atomic = arith.ori %clean, %first : i1
  %notfirst = arith.cmpi ne, %item, %c0 : index
  %add = arith.ori %clean, %notfirst : i1
  %zero = arith.constant 0 : i32
  %plain_read = arith.cmpi eq, %how, %zero : i32
  %r1 = scf.if %add -> (!mem.M<1>) {
    %a1, %old = mem.atomic_rmw "add" %m1, %cell, %one : !mem.ptr<i32, 1>
    scf.yield %a1 : !mem.M<1>
  } else {
    %b1 = scf.if %plain_read -> (!mem.M<1>) {
      %c1, %v = mem.load %m1, %cell : !mem.ptr<i32, 1>
      scf.yield %c1 : !mem.M<1>
    } else {
      %d1 = mem.store %m1, %cell, %one : !mem.ptr<i32, 1>
      scf.yield %d1 : !mem.M<1>
    }
    scf.yield %b1 : !mem.M<1>
  }
  func.return %r1, %m3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}

func.func @main(%m: !mem.M<0>, %how: i32) -> (!mem.M<0>, i32) {
  %m0, %m1, %m4 = gpu.init %m
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %stream = gpu.default_stream
  %a1, %cell = gpu.alloc.block %m1 : !mem.ptr<i32, 1>
  %l0, %l1, %l4 = gpu.launch @kernel grid(%c1, %c4) stream(%stream) mems(%m0, %a1, %m4)
      args(%how, %cell) : (i32, !mem.ptr<i32, 1>)
  %h0, %host = mem.alloc %l0 : !mem.ptr<i32, 0>
  %b0, %b1 = gpu.copy_to_host.block %h0, %l1, %cell -> %host : !mem.ptr<i32, 1> -> !mem.ptr<i32, 0>
  %c0_, %v = mem.load %b0, %host : !mem.ptr<i32, 0>
  %f1 = gpu.free.block %b1, %cell : !mem.ptr<i32, 1>
  %f0 = mem.free %c0_, %host : !mem.ptr<i32, 0>
  %done = gpu.deinit %f0, %f1, %l4
  func.return %done, %v : !mem.M<0>, i32
}
