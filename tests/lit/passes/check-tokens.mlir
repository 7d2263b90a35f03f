// RUN: gpu-opt %s -p check-tokens --split-input-file | filecheck %s
// RUN: gpu-opt %s -p check-tokens --split-input-file --verify-diagnostics -o /dev/null
// RUN: gpu-opt %s -p check-tokens --split-input-file --mlir-pass-statistics -o /dev/null 2>&1 | filecheck %s --check-prefix=STATS

// The statistics of the whole file: every token value (results and block arguments), the
// tokens with two uses that can run for one value, or one use that runs again in a loop, and
// no conflict among them.
// STATS:      {{^}}CheckTokens
// STATS-NEXT:   (S) 52 num-tokens-checked      - Number of memory tokens checked
// STATS-NEXT:   (S)  5 num-tokens-forked       - Number of tokens used twice, or again in a loop, followed
// STATS-NEXT:   (S)  0 num-unordered-conflicts - Number of forks that leave conflicting effects unordered

// None of these chains leaves conflicting effects unordered: the pass says nothing, and the
// module is printed as it was.

// A linear chain on the host: each op takes the token the one before returned.
// CHECK-LABEL: func.func @linear
// CHECK:         mem.store
// CHECK-NEXT:    mem.store
// CHECK-NEXT:    mem.load
func.func @linear(%t: !mem.M<0>) -> (!mem.M<0>, i32) {
  %one = arith.constant 1 : i32
  %two = arith.constant 2 : i32
  %t0, %p = mem.slot %t : !mem.ptr<i32, 0>
  %t1 = mem.store %t0, %p, %one : !mem.ptr<i32, 0>
  %t2 = mem.store %t1, %p, %two : !mem.ptr<i32, 0>
  %t3, %v = mem.load %t2, %p : !mem.ptr<i32, 0>
  func.return %t3, %v : !mem.M<0>, i32
}

// -----

// Reads that share a token are fine, and so is the write after them on one branch when no
// other branch reads what it writes: a different constant index into the same array, or a
// different allocation.
// CHECK-LABEL: func.func @forked_reads
func.func @forked_reads(%t: !mem.M<0>) -> (!mem.M<0>, i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %t0, %a = mem.slot %t : !mem.ptr<!mem.array<4 x i32>, 0>
  %t1, %b = mem.slot %t0 : !mem.ptr<i32, 0>
  %p = mem.lea %a, %c0 : !mem.ptr<!mem.array<4 x i32>, 0>
  %q = mem.lea %a, %c1 : !mem.ptr<!mem.array<4 x i32>, 0>
  %t2, %x = mem.load %t1, %p : !mem.ptr<i32, 0>
  %t3, %y = mem.load %t1, %p : !mem.ptr<i32, 0>
  %t4 = mem.store %t3, %q, %x : !mem.ptr<i32, 0>
  %t5 = mem.store %t2, %b, %y : !mem.ptr<i32, 0>
  func.return %t4, %x : !mem.M<0>, i32
}

// -----

// The two regions of an scf.if never both run: each may take the token before the if.
// CHECK-LABEL: func.func @branches
func.func @branches(%t: !mem.M<0>, %p: !mem.ptr<i32, 0>, %c: i1) -> !mem.M<0> {
  %one = arith.constant 1 : i32
  %two = arith.constant 2 : i32
  %r = scf.if %c -> (!mem.M<0>) {
    %t1 = mem.store %t, %p, %one : !mem.ptr<i32, 0>
    scf.yield %t1 : !mem.M<0>
  } else {
    %t2 = mem.store %t, %p, %two : !mem.ptr<i32, 0>
    scf.yield %t2 : !mem.M<0>
  }
  func.return %r : !mem.M<0>
}

// -----

// A loop that threads the token through its iteration argument, and one that stores each
// iteration's own element with the token from before the loop: the induction variable differs
// between iterations, so they never touch the same bytes.
// CHECK-LABEL: func.func @loops
func.func @loops(%t: !mem.M<0>, %a: !mem.ptr<!mem.array<8 x i32>, 0>) -> !mem.M<0> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant 0 : i32
  %r = scf.for %i = %c0 to %c8 step %c1 iter_args(%u = %t) -> (!mem.M<0>) {
    %p = mem.lea %a, %i : !mem.ptr<!mem.array<8 x i32>, 0>
    %u1 = mem.store %u, %p, %zero : !mem.ptr<i32, 0>
    scf.yield %u1 : !mem.M<0>
  }
  scf.for %i = %c0 to %c8 step %c1 {
    %p = mem.lea %a, %i : !mem.ptr<!mem.array<8 x i32>, 0>
    %u1 = mem.store %r, %p, %zero : !mem.ptr<i32, 0>
    scf.yield
  }
  func.return %r : !mem.M<0>
}

// -----

// A kernel: a linear chain per address space, a barrier between the shared store and the
// loads, and a global load and a shared load that share nothing but the kernel's entry.
// CHECK-LABEL: func.func @kernel
// CHECK:         gpu.sync_work_items
func.func @kernel(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
                  %group: index, %item: index, %out: !mem.ptr<!mem.array<? x i32>, 1>)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
  %a3, %s = mem.slot %m3 : !mem.ptr<!mem.array<4 x i32>, 3>
  %v = arith.index_cast %item : index to i32
  %mine = mem.lea %s, %item : !mem.ptr<!mem.array<4 x i32>, 3>
  %b3 = mem.store %a3, %mine, %v : !mem.ptr<i32, 3>
  %s1, %s3 = gpu.sync_work_items %m1, %b3
  %c0 = arith.constant 0 : index
  %first = mem.lea %s, %c0 : !mem.ptr<!mem.array<4 x i32>, 3>
  %l3, %w = mem.load %s3, %first : !mem.ptr<i32, 3>
  %k3, %x = mem.load %s3, %mine : !mem.ptr<i32, 3>
  %sum = arith.addi %w, %x : i32
  %dst = mem.lea %out, %item : !mem.ptr<!mem.array<? x i32>, 1>
  %f1 = mem.store %s1, %dst, %sum : !mem.ptr<i32, 1>
  func.return %f1, %k3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}

// -----

// Host code around a launch: the copies and the launch follow one chain per space; the launch
// and the session's end share the const token, which neither writes.
// CHECK-LABEL: func.func @main
func.func @k(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
             %group: index, %item: index, %p: !mem.ptr<!mem.array<4 x i32>, 1>)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
  func.return %m1, %m3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}

func.func @main(%m: !mem.M<0>) -> !mem.M<0> {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %m0, %m1, %m4 = gpu.init %m
  %stream = gpu.default_stream
  %a0, %host = mem.alloc %m0 : !mem.ptr<!mem.array<4 x i32>, 0>
  %b1, %dev = gpu.alloc.block %m1 : !mem.ptr<!mem.array<4 x i32>, 1>
  %c0_, %c1_ = gpu.copy_to_device.block %a0, %b1, %host -> %dev : !mem.ptr<!mem.array<4 x i32>, 0> -> !mem.ptr<!mem.array<4 x i32>, 1>
  %l0, %l1, %l4 = gpu.launch @k grid(%c1, %c4) stream(%stream) mems(%c0_, %c1_, %m4) args(%dev) : (!mem.ptr<!mem.array<4 x i32>, 1>)
  %h0, %h1 = gpu.copy_to_host.block %l0, %l1, %dev -> %host : !mem.ptr<!mem.array<4 x i32>, 1> -> !mem.ptr<!mem.array<4 x i32>, 0>
  %f1 = gpu.free.block %h1, %dev : !mem.ptr<!mem.array<4 x i32>, 1>
  %f0 = mem.free %h0, %host : !mem.ptr<!mem.array<4 x i32>, 0>
  %e = gpu.deinit %f0, %f1, %m4
  func.return %e : !mem.M<0>
}
