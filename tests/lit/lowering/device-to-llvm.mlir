// RUN: gpu-opt %s -p gpu-pipeline,device-to-llvm | filecheck %s

// The whole device lowering on a program: the host module is left as it is (its launch now
// names an llvm.func whose parameters are the launch's arguments), the device module is all
// llvm dialect. The kernel sums its row of a 4 x 4 matrix into a shared array, syncs, and one
// item per group writes the group's total through a helper.
func.func @rowsum(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
                  %group: index, %item: index, %a: !mem.ptr<!mem.array<4 x !mem.array<4 x f32>>, 1>,
                  %out: !mem.ptr<!mem.array<4 x f32>, 1>)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
  %s3, %partial = mem.slot %m3 : !mem.ptr<!mem.array<4 x f32>, 3>
  %row = mem.lea %a, %item : !mem.ptr<!mem.array<4 x !mem.array<4 x f32>>, 1>
  %zero = arith.constant 0 : index
  %one = arith.constant 1 : index
  %four = arith.constant 4 : index
  %f0 = arith.constant 0.0 : f32
  %t1, %sum = scf.for %j = %zero to %four step %one iter_args(%tok = %m1, %acc = %f0) -> (!mem.M<1>, f32) {
    %e = mem.lea %row, %j : !mem.ptr<!mem.array<4 x f32>, 1>
    %tok2, %x = mem.load %tok, %e : !mem.ptr<f32, 1>
    %acc2 = arith.addf %acc, %x : f32
    scf.yield %tok2, %acc2 : !mem.M<1>, f32
  }
  %mine = mem.lea %partial, %item : !mem.ptr<!mem.array<4 x f32>, 3>
  %u3 = mem.store %s3, %mine, %sum : !mem.ptr<f32, 3>
  %v1, %v3 = gpu.sync_work_items %t1, %u3
  %first = arith.cmpi eq, %item, %zero : index
  %w1, %w3 = scf.if %first -> (!mem.M<1>, !mem.M<3>) {
    %x1, %x3 = func.call @store_total(%v1, %v3, %partial, %out, %group) : (!mem.M<1>, !mem.M<3>, !mem.ptr<!mem.array<4 x f32>, 3>, !mem.ptr<!mem.array<4 x f32>, 1>, index) -> (!mem.M<1>, !mem.M<3>)
    scf.yield %x1, %x3 : !mem.M<1>, !mem.M<3>
  } else {
    scf.yield %v1, %v3 : !mem.M<1>, !mem.M<3>
  }
  func.return %w1, %w3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}

func.func @store_total(%m1: !mem.M<1>, %m3: !mem.M<3>, %partial: !mem.ptr<!mem.array<4 x f32>, 3>,
                       %out: !mem.ptr<!mem.array<4 x f32>, 1>, %g: index) -> (!mem.M<1>, !mem.M<3>) {
  %zero = arith.constant 0 : index
  %p = mem.lea %partial, %zero : !mem.ptr<!mem.array<4 x f32>, 3>
  %a3, %v = mem.load %m3, %p : !mem.ptr<f32, 3>
  %o = mem.lea %out, %g : !mem.ptr<!mem.array<4 x f32>, 1>
  %a1 = mem.store %m1, %o, %v : !mem.ptr<f32, 1>
  func.return %a1, %a3 : !mem.M<1>, !mem.M<3>
}

func.func @main(%m: !mem.M<0>) -> !mem.M<0> {
  %m0, %m1, %m4 = gpu.init %m
  %a1, %a = gpu.alloc.block %m1 : !mem.ptr<!mem.array<4 x !mem.array<4 x f32>>, 1>
  %b1, %out = gpu.alloc.block %a1 : !mem.ptr<!mem.array<4 x f32>, 1>
  %s = gpu.default_stream
  %one = arith.constant 1 : index
  %four = arith.constant 4 : index
  %l0, %l1, %l4 = gpu.launch @rowsum grid(%one, %four) stream(%s) mems(%m0, %b1, %m4)
      args(%a, %out) : (!mem.ptr<!mem.array<4 x !mem.array<4 x f32>>, 1>, !mem.ptr<!mem.array<4 x f32>, 1>)
  %done = gpu.deinit %l0, %l1, %l4
  func.return %done : !mem.M<0>
}

// CHECK: builtin.module {
// CHECK-NEXT:   builtin.module @host {
// CHECK-NEXT:     func.func @main(%m: !mem.M<0>) -> !mem.M<0> {
// CHECK-NEXT:       %m0, %m1, %m4 = gpu.init %m
// CHECK-NEXT:       %a1, %a = gpu.alloc.block %m1 : !mem.ptr<!mem.array<4 x !mem.array<4 x f32>>, 1>
// CHECK-NEXT:       %b1, %out = gpu.alloc.block %a1 : !mem.ptr<!mem.array<4 x f32>, 1>
// CHECK-NEXT:       %s = gpu.default_stream
// CHECK-NEXT:       %one = arith.constant 1 : index
// CHECK-NEXT:       %four = arith.constant 4 : index
// CHECK-NEXT:       %l0, %l1, %l4 = gpu.launch @device::@rowsum grid(%one, %four) stream(%s) mems(%m0, %b1, %m4) args(%a, %out) : (!mem.ptr<!mem.array<4 x !mem.array<4 x f32>>, 1>, !mem.ptr<!mem.array<4 x f32>, 1>)
// CHECK-NEXT:       %done = gpu.deinit %l0, %l1, %l4
// CHECK-NEXT:       func.return %done : !mem.M<0>
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT:   builtin.module @device attributes {gpu.device} {
// CHECK-NEXT:     llvm.mlir.global internal @__shared_rowsum_0() {addr_space = 3 : i32, alignment = 4 : i64} : !llvm.array<4 x f32>
// CHECK-NEXT:     llvm.func @rowsum(%a: !llvm.ptr<1>, %out: !llvm.ptr<1>) attributes {gpu.kernel, nvvm.kernel} {
// CHECK-NEXT:       %0 = llvm.call_intrinsic "llvm.nvvm.read.ptx.sreg.ctaid.x"() : () -> i32
// CHECK-NEXT:       %group = llvm.zext nneg %0 : i32 to i64
// CHECK-NEXT:       %1 = llvm.call_intrinsic "llvm.nvvm.read.ptx.sreg.tid.x"() : () -> i32
// CHECK-NEXT:       %2 = llvm.zext nneg %1 : i32 to i64
// CHECK-NEXT:       %partial = llvm.mlir.addressof @__shared_rowsum_0 : !llvm.ptr<3>
// CHECK-NEXT:       %3 = llvm.getelementptr inbounds %a[%2] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, !llvm.array<4 x f32>
// CHECK-NEXT:       %4 = llvm.mlir.constant(0) : i64
// CHECK-NEXT:       %5 = llvm.mlir.constant(1) : i64
// CHECK-NEXT:       %6 = llvm.mlir.constant(4) : i64
// CHECK-NEXT:       %f0 = llvm.mlir.constant(0.000000e+00 : f32) : f32
// CHECK-NEXT:       llvm.br ^bb1(%4, %f0 : i64, f32)
// CHECK-NEXT:     ^bb1(%j: i64, %acc: f32):
// CHECK-NEXT:       %7 = llvm.icmp "slt" %j, %6 : i64
// CHECK-NEXT:       llvm.cond_br %7, ^bb2, ^bb3
// CHECK-NEXT:     ^bb2:
// CHECK-NEXT:       %8 = llvm.getelementptr inbounds %3[%j] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
// CHECK-NEXT:       %x = llvm.load %8 : !llvm.ptr<1> -> f32
// CHECK-NEXT:       %acc2 = llvm.fadd %acc, %x : f32
// CHECK-NEXT:       %9 = llvm.add %j, %5 : i64
// CHECK-NEXT:       llvm.br ^bb1(%9, %acc2 : i64, f32)
// CHECK-NEXT:     ^bb3:
// CHECK-NEXT:       %10 = llvm.getelementptr inbounds %partial[%2] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, f32
// CHECK-NEXT:       llvm.store %acc, %10 : f32, !llvm.ptr<3>
// CHECK-NEXT:       %11 = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT:       llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.all"(%11) : (i32) -> ()
// CHECK-NEXT:       %first = llvm.icmp "eq" %2, %4 : i64
// CHECK-NEXT:       llvm.cond_br %first, ^bb4, ^bb5
// CHECK-NEXT:     ^bb4:
// CHECK-NEXT:       llvm.call @store_total(%partial, %out, %group) : (!llvm.ptr<3>, !llvm.ptr<1>, i64) -> ()
// CHECK-NEXT:       llvm.br ^bb6
// CHECK-NEXT:     ^bb5:
// CHECK-NEXT:       llvm.br ^bb6
// CHECK-NEXT:     ^bb6:
// CHECK-NEXT:       llvm.br ^bb7
// CHECK-NEXT:     ^bb7:
// CHECK-NEXT:       llvm.return
// CHECK-NEXT:     }
// CHECK-NEXT:     llvm.func internal @store_total(%partial_1: !llvm.ptr<3>, %out_1: !llvm.ptr<1>, %g: i64) {
// CHECK-NEXT:       %12 = llvm.mlir.constant(0) : i64
// CHECK-NEXT:       %13 = llvm.getelementptr inbounds %partial_1[%12] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, f32
// CHECK-NEXT:       %v = llvm.load %13 : !llvm.ptr<3> -> f32
// CHECK-NEXT:       %14 = llvm.getelementptr inbounds %out_1[%g] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
// CHECK-NEXT:       llvm.store %v, %14 : f32, !llvm.ptr<1>
// CHECK-NEXT:       llvm.return
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT: }
