// RUN: gpu-opt %s -p check-tokens --verify-diagnostics --split-input-file -o /dev/null
// RUN: not gpu-opt %s -p check-tokens --split-input-file --mlir-pass-statistics -o /dev/null 2>&1 | filecheck %s --check-prefix=STATS

// The statistics of the whole file: each chunk counts, the ones that end in an error too.
// STATS:      {{^}}CheckTokens
// STATS-NEXT:   (S) 37 num-tokens-checked      - Number of memory tokens checked
// STATS-NEXT:   (S)  9 num-tokens-forked       - Number of tokens used twice, or again in a loop, followed
// STATS-NEXT:   (S)  8 num-unordered-conflicts - Number of forks that leave conflicting effects unordered

// Host code: two stores of one pointer follow the same token, so a pass may swap them and the
// load after the first may read either value.
func.func @main(%t: !mem.M<0>) -> (!mem.M<0>, i32) {
  %one = arith.constant 1 : i32
  %two = arith.constant 2 : i32
  %t0, %p = mem.slot %t : !mem.ptr<i32, 0>
  %t1 = mem.store %t0, %p, %one : !mem.ptr<i32, 0>  // expected-note {{the other op of the pair}}
  // expected-error-re @below {{'mem.store' and 'mem.store' at {{.*}}check-tokens-invalid.mlir:16:3 consume the same !mem.M<0> token, so no token chain orders them; they touch the same bytes of host memory and one of them writes, so their order is not fixed: thread one's token into the other}}
  %t2 = mem.store %t0, %p, %two : !mem.ptr<i32, 0>
  %t3, %v = mem.load %t1, %p : !mem.ptr<i32, 0>
  func.return %t3, %v : !mem.M<0>, i32
}

// -----

// Host code: a store and a load through two pointers that may be the same (parameters).
func.func @maybe(%t: !mem.M<0>, %p: !mem.ptr<i32, 0>, %q: !mem.ptr<i32, 0>) -> (!mem.M<0>, i32) {
  %one = arith.constant 1 : i32
  %t1 = mem.store %t, %p, %one : !mem.ptr<i32, 0>  // expected-note {{the other op of the pair}}
  // expected-warning-re @below {{'mem.load' and 'mem.store' at {{.*}}check-tokens-invalid.mlir:28:3 consume the same !mem.M<0> token, so no token chain orders them; one of them writes and they may touch the same host memory, so a pass may swap them: thread one's token into the other}}
  %t2, %v = mem.load %t, %q : !mem.ptr<i32, 0>
  func.return %t1, %v : !mem.M<0>, i32
}

// -----

// Behind an scf.if: the store inside it takes the token from before the if, and so does the
// load after it; when the condition holds, which of the two runs first is not fixed.
func.func @behind_if(%t: !mem.M<0>, %c: i1) -> (!mem.M<0>, i32) {
  %one = arith.constant 1 : i32
  %t0, %p = mem.slot %t : !mem.ptr<i32, 0>
  scf.if %c {
    %t1 = mem.store %t0, %p, %one : !mem.ptr<i32, 0>  // expected-note {{the other op of the pair}}
    scf.yield
  }
  // expected-error-re @below {{'mem.load' and 'mem.store' at {{.*}}check-tokens-invalid.mlir:42:5 consume the same !mem.M<0> token, so no token chain orders them; they touch the same bytes of host memory and one of them writes, so their order is not fixed: thread one's token into the other}}
  %t2, %v = mem.load %t0, %p : !mem.ptr<i32, 0>
  func.return %t2, %v : !mem.M<0>, i32
}

// -----

// Reads may share a token, but what follows one of them is still unordered against the other:
// the store after the first load may move before the second.
func.func @after_reads(%t: !mem.M<0>, %p: !mem.ptr<i32, 0>) -> (!mem.M<0>, i32) {
  %t1, %x = mem.load %t, %p : !mem.ptr<i32, 0>
  %t2, %y = mem.load %t, %p : !mem.ptr<i32, 0>  // expected-note {{the other op of the pair}}
  %s = arith.addi %x, %y : i32
  // expected-error-re @below {{'mem.store' and 'mem.load' at {{.*}}check-tokens-invalid.mlir:56:3 are not ordered by the token chain: it forks where 'mem.load' at {{.*}}check-tokens-invalid.mlir:55:3 and 'mem.load' at {{.*}}check-tokens-invalid.mlir:56:3 consume the same !mem.M<0> token; they touch the same bytes of host memory and one of them writes, so their order is not fixed: thread one's token into the other}}
  %t3 = mem.store %t1, %p, %s : !mem.ptr<i32, 0>
  func.return %t3, %s : !mem.M<0>, i32
}

// -----

// A loop whose body stores with the token from before the loop: each iteration's store is
// unordered against the others', all to the same bytes.
func.func @every_iteration(%t: !mem.M<0>, %p: !mem.ptr<index, 0>) -> !mem.M<0> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.for %i = %c0 to %c8 step %c1 {
    // expected-error-re @below {{'mem.store' in two iterations are not ordered by the token chain: 'mem.store' at {{.*}}check-tokens-invalid.mlir:73:5 consumes the !mem.M<0> token again in each iteration of 'scf.for' at {{.*}}check-tokens-invalid.mlir:71:3; they touch the same bytes of host memory and one of them writes, so their order is not fixed: thread one's token into the other}}
    %u = mem.store %t, %p, %i : !mem.ptr<index, 0>
    scf.yield
  }
  func.return %t : !mem.M<0>
}

// -----

// A kernel: the shared load takes the token from before the barrier, so nothing keeps it after
// the barrier (and after the other work-items' stores).
func.func @kernel(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
                  %group: index, %item: index)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
  %c0 = arith.constant 0 : index
  %a3, %s = mem.slot %m3 : !mem.ptr<!mem.array<4 x i32>, 3>
  %v = arith.index_cast %item : index to i32
  %mine = mem.lea %s, %item : !mem.ptr<!mem.array<4 x i32>, 3>
  %b3 = mem.store %a3, %mine, %v : !mem.ptr<i32, 3>
  %s1, %s3 = gpu.sync_work_items %m1, %b3  // expected-note {{the other op of the pair}}
  %first = mem.lea %s, %c0 : !mem.ptr<!mem.array<4 x i32>, 3>
  // expected-warning-re @below {{'mem.load' and 'gpu.sync_work_items' at {{.*}}check-tokens-invalid.mlir:91:3 consume the same !mem.M<3> token, so no token chain orders them; one of them writes and they may touch the same shared memory, so a pass may swap them: thread one's token into the other}}
  %l3, %w = mem.load %b3, %first : !mem.ptr<i32, 3>
  func.return %s1, %l3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}

// -----

// A kernel: two stores to the work-item's own element of global memory, forked.
func.func @kernel(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
                  %group: index, %item: index, %out: !mem.ptr<!mem.array<? x i32>, 1>)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %mine = mem.lea %out, %item : !mem.ptr<!mem.array<? x i32>, 1>
  %a1 = mem.store %m1, %mine, %zero : !mem.ptr<i32, 1>  // expected-note {{the other op of the pair}}
  // expected-error-re @below {{'mem.store' and 'mem.store' at {{.*}}check-tokens-invalid.mlir:107:3 consume the same !mem.M<1> token, so no token chain orders them; they touch the same bytes of global memory and one of them writes, so their order is not fixed: thread one's token into the other}}
  %b1 = mem.store %m1, %mine, %one : !mem.ptr<i32, 1>
  func.return %b1, %m3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}

// -----

// Host code: the copy back takes the global token from before the launch, so it may copy
// before the kernel wrote anything.
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
  %l0, %l1, %l4 = gpu.launch @k grid(%c1, %c4) stream(%stream) mems(%a0, %b1, %m4) args(%dev) : (!mem.ptr<!mem.array<4 x i32>, 1>)  // expected-note {{the other op of the pair}}
  // expected-warning-re @below {{'gpu.copy_to_host.block' and 'gpu.launch' at {{.*}}check-tokens-invalid.mlir:130:3 consume the same !mem.M<1> token, so no token chain orders them; one of them writes and they may touch the same global memory, so a pass may swap them: thread one's token into the other}}
  %h0, %h1 = gpu.copy_to_host.block %l0, %b1, %dev -> %host : !mem.ptr<!mem.array<4 x i32>, 1> -> !mem.ptr<!mem.array<4 x i32>, 0>
  %f1 = gpu.free.block %h1, %dev : !mem.ptr<!mem.array<4 x i32>, 1>
  %f0 = mem.free %h0, %host : !mem.ptr<!mem.array<4 x i32>, 0>
  %e = gpu.deinit %f0, %f1, %m4
  func.return %e : !mem.M<0>
}
