// One registry of passes (gpuir.ir.registry): a pass name means the same everywhere, at the
// top of gpu-opt's -p, inside split-apply's sub-pipelines and gpu-pipeline's options, in
// gpu-run's -p: the lowering passes included.
// RUN: gpu-opt %s -p 'split-apply{device-pipeline="cpu-workgroup-loops"}' | filecheck %s
// RUN: gpu-opt %s -p 'gpu-pipeline{device-pipeline="remove-double-syncs,cpu-workgroup-loops"}' | filecheck %s
// RUN: gpu-opt %s -p 'gpu-pipeline,device-to-llvm' | filecheck %s --check-prefix=LLVM
// RUN: gpu-run %s -p 'gpu-pipeline,convert-scf-while-to-cf' --provider cpu | filecheck %s --check-prefix=OUT
// RUN: not gpu-opt %s -p 'split-apply{device-pipeline="cpu-workgroup-lops"}' 2>&1 | filecheck %s --check-prefix=TYPO

// CHECK: func.func @k({{.*}}%group_id: index, %n_items: index{{.*}}attributes {gpu.workgroup, gpu.shared_bytes = 0 : i64, gpu.write_only = array<i64: 0>}
// LLVM:  llvm.func @k(
// OUT:   7
// TYPO:  split-apply: device-pipeline="cpu-workgroup-lops" names the unknown pass 'cpu-workgroup-lops' (did you mean 'cpu-workgroup-loops'?)

func.func @k(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
             %group: index, %item: index, %p: !mem.ptr<i32, 1>)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
  %v = arith.constant 7 : i32
  %t = mem.store %m1, %p, %v : !mem.ptr<i32, 1>
  func.return %t, %m3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}

func.func @main(%m: !mem.M<0>) -> (!mem.M<0>, i32) {
  %m0, %m1, %m4 = gpu.init %m
  %h0, %h = mem.alloc %m0 : !mem.ptr<i32, 0>
  %d1, %d = gpu.alloc.block %m1 : !mem.ptr<i32, 1>
  %s = gpu.default_stream
  %one = arith.constant 1 : index
  %l0, %l1, %l4 = gpu.launch @k grid(%one, %one) stream(%s) mems(%h0, %d1, %m4)
      args(%d) : (!mem.ptr<i32, 1>)
  %c0, %c1 = gpu.copy_to_host.block %l0, %l1, %d -> %h : !mem.ptr<i32, 1> -> !mem.ptr<i32, 0>
  %r0, %r = mem.load %c0, %h : !mem.ptr<i32, 0>
  %f1 = gpu.free.block %c1, %d : !mem.ptr<i32, 1>
  %f0 = mem.free %r0, %h : !mem.ptr<i32, 0>
  %e = gpu.deinit %f0, %f1, %l4
  func.return %e, %r : !mem.M<0>, i32
}
