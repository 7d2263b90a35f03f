// interp's token-order check across launches and copies: what a kernel reads and writes in
// global memory counts as its launch's access, made with the token the launch consumed.
// Argument 1 makes the second launch consume the token that the first one consumed, so both
// write the buffer unordered; argument 0 threads the first launch's token into the second
// (the buffer then holds the second launch's 2). Argument 2 threads the launches but copies the
// buffer back with the token from before them.
// RUN: gpu-run %s --provider interp 0 | filecheck %s --check-prefix=THREADED
// RUN: not gpu-run %s --provider interp 1 2>&1 | filecheck %s --check-prefix=LAUNCHES
// RUN: not gpu-run %s --provider interp 2 2>&1 | filecheck %s --check-prefix=COPY

func.func @fill(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
                %group: index, %item: index, %data: !mem.ptr<!mem.array<4 x i32>, 1>, %v: i32)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
  %e = mem.lea %data, %item : !mem.ptr<!mem.array<4 x i32>, 1>
  %a1 = mem.store %m1, %e, %v : !mem.ptr<i32, 1>
  func.return %a1, %m3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}

func.func @main(%m: !mem.M<0>, %case: i32) -> (!mem.M<0>, i32) {
  %a0, %h = mem.alloc %m : !mem.ptr<!mem.array<4 x i32>, 0>
  %m0, %m1, %m4 = gpu.init %a0
  %b1, %d = gpu.alloc.block %m1 : !mem.ptr<!mem.array<4 x i32>, 1>
  %one = arith.constant 1 : index
  %four = arith.constant 4 : index
  %s = gpu.default_stream
  %x = arith.constant 1 : i32
  %y = arith.constant 2 : i32
  %c0, %c1, %c4 = gpu.launch @fill grid(%one, %four) stream(%s) mems(%m0, %b1, %m4)
      args(%d, %x) : (!mem.ptr<!mem.array<4 x i32>, 1>, i32)
  %is1 = arith.cmpi eq, %case, %x : i32
  %second = scf.if %is1 -> (!mem.M<1>) {
    scf.yield %b1 : !mem.M<1>
  } else {
    scf.yield %c1 : !mem.M<1>
  }
  %e0, %e1, %e4 = gpu.launch @fill grid(%one, %four) stream(%s) mems(%c0, %second, %c4)
      args(%d, %y) : (!mem.ptr<!mem.array<4 x i32>, 1>, i32)
  %is2 = arith.cmpi eq, %case, %y : i32
  %back = scf.if %is2 -> (!mem.M<1>) {
    scf.yield %b1 : !mem.M<1>
  } else {
    scf.yield %e1 : !mem.M<1>
  }
  %f0, %f1 = gpu.copy_to_host.block %e0, %back, %d -> %h : !mem.ptr<!mem.array<4 x i32>, 1> -> !mem.ptr<!mem.array<4 x i32>, 0>
  %g1 = gpu.free.block %f1, %d : !mem.ptr<!mem.array<4 x i32>, 1>
  %closed = gpu.deinit %f0, %g1, %e4
  %zero = arith.constant 0 : index
  %p = mem.lea %h, %zero : !mem.ptr<!mem.array<4 x i32>, 0>
  %o0, %v = mem.load %closed, %p : !mem.ptr<i32, 0>
  %done = mem.free %o0, %h : !mem.ptr<!mem.array<4 x i32>, 0>
  func.return %done, %v : !mem.M<0>, i32
}

// THREADED: 2

// LAUNCHES: token-order-launch.mlir:36:3: error: unordered access to global memory: work-item (group 0, item 0) of this launch ('mem.store' at {{.*}}token-order-launch.mlir:15:3) writes byte 0 of a 16-byte global allocation (by 'gpu.alloc.block' at {{.*}}token-order-launch.mlir:22:3), which 'gpu.launch' at {{.*}}token-order-launch.mlir:28:3 (work-item (group 0, item 0), 'mem.store' at {{.*}}token-order-launch.mlir:15:3) wrote, and no token chain orders the two: both consume one token
// LAUNCHES: token-order-launch.mlir:28:3: note: the other access
// LAUNCHES: token-order-launch.mlir:15:3: note: the access of work-item (group 0, item 0)
// LAUNCHES: token-order-launch.mlir:15:3: note: the other access, by work-item (group 0, item 0)
// LAUNCHES-NOT: Traceback
// COPY: token-order-launch.mlir:44:3: error: unordered access to global memory: host code reads byte 0 of a 16-byte global allocation (by 'gpu.alloc.block' at {{.*}}token-order-launch.mlir:22:3), which 'gpu.launch' at {{.*}}token-order-launch.mlir:36:3 (work-item (group 0, item 0), 'mem.store' at {{.*}}token-order-launch.mlir:15:3) wrote, and no token chain orders the two: the chain forks where 'gpu.copy_to_host.block' at {{.*}}token-order-launch.mlir:44:3 consumes the token that 'gpu.launch' at {{.*}}token-order-launch.mlir:28:3 consumed already
// COPY: token-order-launch.mlir:36:3: note: the other access
// COPY: token-order-launch.mlir:15:3: note: the other access, by work-item (group 0, item 0)
// COPY-NOT: Traceback
