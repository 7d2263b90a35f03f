// RUN: gpu-opt %s -p 'device-to-llvm{index-bitwidth=32}' | filecheck %s
// RUN: gpu-opt %s -t 'llvm{index-bitwidth=32}' | filecheck %s --check-prefix=LLVM
// RUN: gpu-opt %s -t 'ptx{sm=90 index-bitwidth=32}' | filecheck %s --check-prefix=PTX
// RUN: gpu-opt %s -p device-to-llvm | filecheck %s --check-prefix=WIDE

// device-to-llvm{index-bitwidth=32}: index values are i32 in device code (the ids read from the
// special registers as they are, arithmetic, comparisons, loop counters, block arguments, the
// parameters and results of device functions, constants), while memory and the kernel ABI keep
// 64 bits: a kernel's index parameter is an i64 truncated once at the entry, an index in memory
// (array element, struct field) is an i64, truncated after a load and sign-extended before a
// store; a GEP takes the i32 index (LLVM sign-extends it); malloc's size is sign-extended.

builtin.module attributes {gpu.device} {
  func.func @k(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
               %group: index, %item: index, %n: index,
               %x: !mem.ptr<!mem.array<? x f32>, 1>, %idx: !mem.ptr<!mem.array<? x index>, 1>)
      -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) attributes {gpu.kernel} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %base = arith.muli %group, %n : index
    %k = arith.addi %base, %item : index
    %pi = mem.lea %idx, %k : !mem.ptr<!mem.array<? x index>, 1>
    %a1, %j = mem.load %m1, %pi : !mem.ptr<index, 1>
    %t1, %sum = scf.for %i = %c0 to %j step %c1 iter_args(%tok = %a1, %acc = %c0) -> (!mem.M<1>, index) {
      %acc2 = func.call @mix(%acc, %i) : (index, index) -> index
      scf.yield %tok, %acc2 : !mem.M<1>, index
    }
    %b1 = mem.store %t1, %pi, %sum : !mem.ptr<index, 1>
    %w = arith.index_cast %sum : index to i64
    %wf = arith.sitofp %w : i64 to f32
    %px = mem.lea %x, %k : !mem.ptr<!mem.array<? x f32>, 1>
    %c1b = mem.store %b1, %px, %wf : !mem.ptr<f32, 1>
    func.return %c1b, %m3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
  }

  func.func @mix(%a: index, %b: index) -> index {
    %s = arith.addi %a, %b : index
    %mask = arith.constant 4294967295 : index
    %r = arith.andi %s, %mask : index
    func.return %r : index
  }

  func.func @k2(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
                %group: index, %item: index, %s: !llvm.struct<(i32, index)>,
                %out: !mem.ptr<!mem.array<? x index>, 1>)
      -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) attributes {gpu.kernel} {
    %f = llvm.extractvalue %s[1] : !llvm.struct<(i32, index)>
    %a1, %r3, %total = gpu.workgroup_reduce "add" %m1, %m3, %item : index
    %t = arith.addi %total, %f : index
    %b1, %p = mem.alloc %a1, %t : !mem.ptr<!mem.array<? x f32>, 1>
    %c1 = mem.free %b1, %p : !mem.ptr<!mem.array<? x f32>, 1>
    %po = mem.lea %out, %group : !mem.ptr<!mem.array<? x index>, 1>
    %d1 = mem.store %c1, %po, %t : !mem.ptr<index, 1>
    func.return %d1, %r3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
  }
}

// CHECK:      builtin.module attributes {gpu.device, gpu.index_bitwidth = 32 : i64} {
// CHECK:        llvm.func @k(%n: i64, %x: !llvm.ptr<1>, %idx: !llvm.ptr<1>) attributes {gpu.kernel, nvvm.kernel} {
// CHECK-NEXT:     %0 = llvm.trunc %n : i64 to i32
// CHECK-NEXT:     %1 = llvm.call_intrinsic "llvm.nvvm.read.ptx.sreg.ctaid.x"() : () -> i32
// CHECK-NEXT:     %2 = llvm.call_intrinsic "llvm.nvvm.read.ptx.sreg.tid.x"() : () -> i32
// CHECK-NEXT:     %3 = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT:     %4 = llvm.mlir.constant(1 : i32) : i32
// CHECK-NEXT:     %5 = llvm.mul %1, %0 : i32
// CHECK-NEXT:     %6 = llvm.add %5, %2 : i32
// CHECK-NEXT:     %7 = llvm.getelementptr inbounds %idx[%6] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, i64
// CHECK-NEXT:     %8 = llvm.load %7 : !llvm.ptr<1> -> i64
// CHECK-NEXT:     %9 = llvm.trunc %8 : i64 to i32
// CHECK-NEXT:     llvm.br ^bb1(%3, %3 : i32, i32)
// CHECK-NEXT:   ^bb1(%i: i32, %acc: i32):
// CHECK-NEXT:     %10 = llvm.icmp "slt" %i, %9 : i32
// CHECK-NEXT:     llvm.cond_br %10, ^bb2, ^bb3
// CHECK-NEXT:   ^bb2:
// CHECK-NEXT:     %11 = llvm.call @mix(%acc, %i) : (i32, i32) -> i32
// CHECK-NEXT:     %12 = llvm.add %i, %4 : i32
// CHECK-NEXT:     llvm.br ^bb1(%12, %11 : i32, i32)
// CHECK-NEXT:   ^bb3:
// CHECK-NEXT:     %13 = llvm.sext %acc : i32 to i64
// CHECK-NEXT:     llvm.store %13, %7 : i64, !llvm.ptr<1>
// CHECK-NEXT:     %w = llvm.sext %acc : i32 to i64
// CHECK-NEXT:     %wf = llvm.sitofp %w : i64 to f32
// CHECK-NEXT:     %14 = llvm.getelementptr inbounds %x[%6] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
// CHECK-NEXT:     llvm.store %wf, %14 : f32, !llvm.ptr<1>
// CHECK-NEXT:     llvm.return
// CHECK-NEXT:   }
// CHECK-NEXT:   llvm.func internal @mix(%a: i32, %b: i32) -> i32 {
// CHECK-NEXT:     %15 = llvm.add %a, %b : i32
// CHECK-NEXT:     %16 = llvm.mlir.constant(-1 : i32) : i32
// CHECK-NEXT:     %r = llvm.and %15, %16 : i32
// CHECK-NEXT:     llvm.return %r : i32
// CHECK-NEXT:   }

// A struct keeps its 64-bit index field; an index collective runs on i32.
// CHECK:        llvm.func @k2(%s: !llvm.struct<(i32, i64)>, %out: !llvm.ptr<1>) attributes {gpu.kernel, nvvm.kernel} {
// CHECK-NEXT:     %{{.*}} = llvm.call_intrinsic "llvm.nvvm.read.ptx.sreg.ctaid.x"() : () -> i32
// CHECK-NEXT:     %[[ITEM:.*]] = llvm.call_intrinsic "llvm.nvvm.read.ptx.sreg.tid.x"() : () -> i32
// CHECK-NEXT:     %[[F:.*]] = llvm.extractvalue %s[1] : !llvm.struct<(i32, i64)>
// CHECK-NEXT:     %[[NARROW:.*]] = llvm.trunc %[[F]] : i64 to i32
// CHECK-NEXT:     %[[TOTAL:.*]] = llvm.call @__gpuir_workgroup_reduce_add_i32(%[[ITEM]]) : (i32) -> i32
// CHECK-NEXT:     %[[SUM:.*]] = llvm.add %[[TOTAL]], %[[NARROW]] : i32
// CHECK-NEXT:     %[[EXT:.*]] = llvm.sext %[[SUM]] : i32 to i64
// CHECK-NEXT:     %[[SIZE:.*]] = llvm.mlir.constant(4) : i64
// CHECK-NEXT:     %{{.*}} = llvm.mul %[[EXT]], %[[SIZE]] : i64
// CHECK-NEXT:     %{{.*}} = llvm.call @malloc(%{{.*}}) : (i64) -> !llvm.ptr
// CHECK:          llvm.store %{{.*}}, %{{.*}} : i64, !llvm.ptr<1>
// CHECK:        llvm.func internal @__gpuir_workgroup_reduce_add_i32(%{{.*}}: i32) -> i32

// LLVM:       define ptx_kernel void @k(i64 %n, ptr addrspace(1) %x, ptr addrspace(1) %idx)
// LLVM-NEXT:  entry:
// LLVM-NEXT:    %[[N:.*]] = trunc i64 %n to i32
// LLVM-NEXT:    %[[G:.*]] = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
// LLVM-NEXT:    %[[I:.*]] = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
// LLVM-NEXT:    %[[B:.*]] = mul i32 %[[G]], %[[N]]
// LLVM-NEXT:    %[[K:.*]] = add i32 %[[B]], %[[I]]
// LLVM-NEXT:    %{{.*}} = getelementptr inbounds i64, ptr addrspace(1) %idx, i32 %[[K]]
// LLVM:         define internal i32 @mix(i32 %a, i32 %b)

// The index parameter is still a .u64 param (the runtimes pack 8 bytes); its low half is read.
// Address computation: the i32 index sign-extended and scaled, as nvcc does for an int.
// PTX:        .visible .entry k(
// PTX-NEXT:     .param .u64 k_param_0,
// PTX:          ld.param.b32 {{.*}}, [k_param_0];
// PTX:          mov.u32 {{.*}}, %ctaid.x;
// PTX:          mad.lo.s32
// PTX:          mul.wide.s32 {{.*}}, 8;

// The default (64) is today's lowering: no attribute, i64 index values, zero-extended ids.
// WIDE:       builtin.module attributes {gpu.device} {
// WIDE:         llvm.func @k(%n: i64, %x: !llvm.ptr<1>, %idx: !llvm.ptr<1>)
// WIDE-NEXT:      %{{.*}} = llvm.call_intrinsic "llvm.nvvm.read.ptx.sreg.ctaid.x"() : () -> i32
// WIDE-NEXT:      %{{.*}} = llvm.zext nneg %{{.*}} : i32 to i64
// WIDE:           llvm.func internal @mix(%a: i64, %b: i64) -> i64
