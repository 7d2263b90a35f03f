// A barrier in a function that the kernel calls (CUDA's __syncthreads in a __device__
// function): the cpu provider inlines the function into the kernel, so each call's barrier is a
// place where the whole group stops. Each item publishes its id, calls @exchange (barrier, read
// the right neighbour's slot, barrier) twice, and writes what it read; with argument 1, odd
// items take the first call and even items the second: barrier divergence through different
// calls of one function, reported alike by interp and cpu.
// RUN: gpu-run %s --provider cpu 0 | filecheck %s
// RUN: gpu-run %s --provider interp 0 | filecheck %s
// RUN: not gpu-run %s --provider cpu 1 2>&1 | filecheck %s --check-prefix=DIVERGE
// RUN: not gpu-run %s --provider interp 1 2>&1 | filecheck %s --check-prefix=DIVERGE
// CHECK:      2 3 0 1
// CHECK-EMPTY:
// DIVERGE:    error: barrier divergence in group 0: work-item(s) 0, 2 wait at 'gpu.sync_work_items' at {{.*}}cpu-barrier-in-function.mlir:22:3, but work-item(s) 1, 3 wait at 'gpu.sync_work_items' at {{.*}}cpu-barrier-in-function.mlir:22:3 (reached through different calls); every work-item of a group must reach the same barriers

// One round: wait, read the slot of item (item + 1) % 4, wait; returns what it read.
func.func @exchange(%m1: !mem.M<1>, %m3: !mem.M<3>, %sh: !mem.ptr<!mem.array<4 x i32>, 3>,
                    %item: index) -> (!mem.M<1>, !mem.M<3>, i32) {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %next = arith.addi %item, %c1 : index
  %right = arith.remui %next, %c4 : index
  %s1, %s3 = gpu.sync_work_items %m1, %m3
  %theirs = mem.lea %sh, %right : !mem.ptr<!mem.array<4 x i32>, 3>
  %t3, %v = mem.load %s3, %theirs : !mem.ptr<i32, 3>
  %u1, %u3 = gpu.sync_work_items %s1, %t3
  func.return %u1, %u3, %v : !mem.M<1>, !mem.M<3>, i32
}

func.func @kernel(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
                  %group: index, %item: index, %split: i1,
                  %out: !mem.ptr<!mem.array<4 x i32>, 1>)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %a3, %sh = mem.slot %m3 : !mem.ptr<!mem.array<4 x i32>, 3>
  %mine = mem.lea %sh, %item : !mem.ptr<!mem.array<4 x i32>, 3>
  %id = arith.index_cast %item : index to i32
  %b3 = mem.store %a3, %mine, %id : !mem.ptr<i32, 3>
  %parity = arith.remui %item, %c2 : index
  %odd = arith.cmpi eq, %parity, %c1 : index
  %first = arith.andi %split, %odd : i1
  %r1, %r3, %v = scf.if %first -> (!mem.M<1>, !mem.M<3>, i32) {
    %x1, %x3, %x = func.call @exchange(%m1, %b3, %sh, %item) : (!mem.M<1>, !mem.M<3>, !mem.ptr<!mem.array<4 x i32>, 3>, index) -> (!mem.M<1>, !mem.M<3>, i32)
    scf.yield %x1, %x3, %x : !mem.M<1>, !mem.M<3>, i32
  } else {
    %y1, %y3, %y = func.call @exchange(%m1, %b3, %sh, %item) : (!mem.M<1>, !mem.M<3>, !mem.ptr<!mem.array<4 x i32>, 3>, index) -> (!mem.M<1>, !mem.M<3>, i32)
    scf.yield %y1, %y3, %y : !mem.M<1>, !mem.M<3>, i32
  }
  %z3 = mem.store %r3, %mine, %v : !mem.ptr<i32, 3>
  %w1, %w3, %twice = func.call @exchange(%r1, %z3, %sh, %item) : (!mem.M<1>, !mem.M<3>, !mem.ptr<!mem.array<4 x i32>, 3>, index) -> (!mem.M<1>, !mem.M<3>, i32)
  %po = mem.lea %out, %item : !mem.ptr<!mem.array<4 x i32>, 1>
  %f1 = mem.store %w1, %po, %twice : !mem.ptr<i32, 1>
  func.return %f1, %w3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}

func.func @main(%m: !mem.M<0>, %which: i32) -> !mem.M<0> {
  %m0, %m1, %m4 = gpu.init %m
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0 : i32
  %split = arith.cmpi ne, %which, %zero : i32
  %stream = gpu.default_stream
  %a1, %out = gpu.alloc.block %m1 : !mem.ptr<!mem.array<4 x i32>, 1>
  %l0, %l1, %l4 = gpu.launch @kernel grid(%c1, %c4) stream(%stream) mems(%m0, %a1, %m4)
      args(%split, %out) : (i1, !mem.ptr<!mem.array<4 x i32>, 1>)
  %h0, %host = mem.alloc %l0 : !mem.ptr<!mem.array<4 x i32>, 0>
  %b0, %b1 = gpu.copy_to_host.block %h0, %l1, %out -> %host : !mem.ptr<!mem.array<4 x i32>, 1> -> !mem.ptr<!mem.array<4 x i32>, 0>
  %e0 = scf.for %k = %c0 to %c4 step %c1 iter_args(%t = %b0) -> (!mem.M<0>) {
    %e = mem.lea %host, %k : !mem.ptr<!mem.array<4 x i32>, 0>
    %t2, %x = mem.load %t, %e : !mem.ptr<i32, 0>
    printf.print_format "{} ", %x : i32
    scf.yield %t2 : !mem.M<0>
  }
  printf.print_format "\n"
  %done = gpu.deinit %e0, %b1, %l4
  func.return %done : !mem.M<0>
}
