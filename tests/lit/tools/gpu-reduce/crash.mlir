// gpu-reduce --crash: the program shrinks to what still crashes gpu-opt in the same pass
// (Inputs/crash_on_subf.py crashes on an arith.subf in a launched kernel); what is left
// verifies, and the progress goes to stderr.
// RUN: gpu-reduce %s --crash 'gpu-opt --load-pass-plugin=%S/Inputs/crash_on_subf.py -p crash-on-subf' -o %t.mlir 2> %t.log
// RUN: gpu-opt %t.mlir | filecheck %s
// RUN: filecheck %s --check-prefix=LOG < %t.log
// RUN: not gpu-opt %t.mlir --load-pass-plugin=%S/Inputs/crash_on_subf.py -p crash-on-subf 2>&1 | filecheck %s --check-prefix=CRASH

// CHECK:      func.func @k(
// CHECK-NEXT:   %{{.*}} = arith.constant
// CHECK-NEXT:   %{{.*}} = arith.subf
// CHECK-NEXT:   func.return
// CHECK:      func.func @main(
// CHECK-NOT:  mem.alloc
// CHECK:      gpu.launch @k
// CHECK-NOT:  arith.addf

// LOG: gpu-reduce: start: {{[0-9]+}} ops; the test: `gpu-opt {{.*}}` crashes in the same pass
// LOG: gpu-reduce: done: {{[0-9]+}} ops

// CRASH: gpu-opt: internal error in pass 'crash-on-subf'

func.func @k(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
             %group: index, %item: index, %arr: !mem.ptr<!mem.array<4 x f32>, 1>)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
  %elem = mem.lea %arr, %item : !mem.ptr<!mem.array<4 x f32>, 1>
  %t, %x = mem.load %m1, %elem : !mem.ptr<f32, 1>
  %one = arith.constant 1.0 : f32
  %y = arith.addf %x, %one : f32
  %z = arith.subf %y, %x : f32
  %w = arith.mulf %z, %y : f32
  %m1b = mem.store %t, %elem, %w : !mem.ptr<f32, 1>
  func.return %m1b, %m3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}

func.func @main(%m: !mem.M<0>) -> (!mem.M<0>, f32) {
  %m0, %m1, %m4 = gpu.init %m
  %h0, %host = mem.alloc %m0 : !mem.ptr<!mem.array<4 x f32>, 0>
  %d1, %dev = gpu.alloc.block %m1 : !mem.ptr<!mem.array<4 x f32>, 1>
  %stream = gpu.default_stream
  %one = arith.constant 1 : index
  %four = arith.constant 4 : index
  %l0, %l1, %l4 = gpu.launch @k grid(%one, %four) stream(%stream)
      mems(%h0, %d1, %m4) args(%dev) : (!mem.ptr<!mem.array<4 x f32>, 1>)
  %c0, %c1 = gpu.copy_to_host.block %l0, %l1, %dev -> %host
      : !mem.ptr<!mem.array<4 x f32>, 1> -> !mem.ptr<!mem.array<4 x f32>, 0>
  %zero = arith.constant 0 : index
  %e = mem.lea %host, %zero : !mem.ptr<!mem.array<4 x f32>, 0>
  %c2, %x = mem.load %c0, %e : !mem.ptr<f32, 0>
  %y = arith.addf %x, %x : f32
  %f1 = gpu.free.block %c1, %dev : !mem.ptr<!mem.array<4 x f32>, 1>
  %f0 = mem.free %c2, %host : !mem.ptr<!mem.array<4 x f32>, 0>
  %done = gpu.deinit %f0, %f1, %l4
  func.return %done, %y : !mem.M<0>, f32
}
