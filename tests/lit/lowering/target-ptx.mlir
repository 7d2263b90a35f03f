// RUN: gpu-opt %s -t ptx | filecheck %s
// RUN: gpu-opt %s -t 'ptx{sm=90 ptx=8.0 opt=0}' | filecheck %s --check-prefix=O0
// RUN: gpu-opt %s -p gpu-pipeline,device-to-llvm | gpu-opt -t ptx | filecheck %s

// -t ptx on a program that is not split yet (gpu-pipeline, device-to-llvm, then LLVM's NVPTX
// back end), and on its lowered llvm dialect (the third RUN line): one kernel per group of
// device ops, each a PTX entry whose parameters are its arguments. The defaults are sm_80 and
// PTX ISA 8.0, -O3.

// CHECK:      .version 8.0
// CHECK-NEXT: .target sm_80
// CHECK-NEXT: .address_size 64
// CHECK:      .extern .shared .align 16 .b8 __dynamic_smem[];

// O0:      .version 8.0
// O0-NEXT: .target sm_90
// O0:      .extern .func free
// O0:      .extern .func  (.param .b64 func_retval0) malloc

func.func @ids(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
               %group: index, %item: index, %n: index, %out: !mem.ptr<!mem.array<? x i32>, 1>)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) attributes {gpu.kernel} {
  %base = arith.muli %group, %n : index
  %flat = arith.addi %base, %item : index
  %p = mem.lea %out, %flat : !mem.ptr<!mem.array<? x i32>, 1>
  %a1, %old = mem.load %m1, %p : !mem.ptr<i32, 1>
  %i = arith.index_cast %item : index to i32
  %v = arith.addi %old, %i : i32
  %b1 = mem.store %a1, %p, %v : !mem.ptr<i32, 1>
  func.return %b1, %m3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}

// CHECK-LABEL: .visible .entry ids(
// CHECK-NEXT:  .param .u64 ids_param_0,
// CHECK-NEXT:  .param .u64 .ptr .global .align 1 ids_param_1
// CHECK:       mov.u32 {{%r[0-9]+}}, %ctaid.x;
// CHECK:       mov.u32 {{%r[0-9]+}}, %tid.x;
// CHECK:       ld.global.b32
// CHECK:       st.global.b32
// CHECK:       ret;

func.func @shared(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
                  %group: index, %item: index, %out: !mem.ptr<!mem.array<64 x f32>, 1>)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) attributes {gpu.kernel} {
  %a3, %tile = mem.slot %m3 : !mem.ptr<!mem.array<64 x f32>, 3>
  %mine = mem.lea %tile, %item : !mem.ptr<!mem.array<64 x f32>, 3>
  %c63 = arith.constant 63 : index
  %f = arith.index_cast %item : index to i32
  %x = arith.sitofp %f : i32 to f32
  %b3 = mem.store %a3, %mine, %x : !mem.ptr<f32, 3>
  %c1, %c3 = gpu.sync_work_items %m1, %b3
  %other = arith.subi %c63, %item : index
  %theirs = mem.lea %tile, %other : !mem.ptr<!mem.array<64 x f32>, 3>
  %d3, %y = mem.load %c3, %theirs : !mem.ptr<f32, 3>
  %o = mem.lea %out, %item : !mem.ptr<!mem.array<64 x f32>, 1>
  %e1 = mem.store %c1, %o, %y : !mem.ptr<f32, 1>
  func.return %e1, %d3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}

// CHECK-LABEL: .visible .entry shared(
// CHECK:       .shared .align 4 .b8 __shared_shared_0[256];
// CHECK:       st.shared.b32
// CHECK-NEXT:  .loc 1 {{[0-9]+ [0-9]+}}
// CHECK-NEXT:  bar.sync 0;
// CHECK:       ld.shared.b32
// CHECK:       st.global.b32

func.func @dynamic_shared(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
                          %group: index, %item: index, %smem: !mem.ptr<!mem.array<? x i64>, 3>,
                          %out: !mem.ptr<!mem.array<? x i64>, 1>)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) attributes {gpu.kernel} {
  %s = mem.lea %smem, %item : !mem.ptr<!mem.array<? x i64>, 3>
  %v = arith.index_cast %group : index to i64
  %a3 = mem.store %m3, %s, %v : !mem.ptr<i64, 3>
  %b1, %b3 = gpu.sync_work_items %m1, %a3
  %zero = arith.constant 0 : index
  %first = mem.lea %smem, %zero : !mem.ptr<!mem.array<? x i64>, 3>
  %c3, %w = mem.load %b3, %first : !mem.ptr<i64, 3>
  %o = mem.lea %out, %item : !mem.ptr<!mem.array<? x i64>, 1>
  %c1 = mem.store %b1, %o, %w : !mem.ptr<i64, 1>
  func.return %c1, %c3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}

// CHECK-LABEL: .visible .entry dynamic_shared(
// CHECK-NEXT:  .param .u64 .ptr .global .align 1 dynamic_shared_param_0
// CHECK:       mov.b64 {{%rd[0-9]+}}, __dynamic_smem;
// CHECK:       st.shared.b64
// CHECK-NEXT:  .loc 1 {{[0-9]+ [0-9]+}}
// CHECK-NEXT:  bar.sync 0;
// CHECK-NEXT:  .loc 1 {{[0-9]+ [0-9]+}}
// CHECK-NEXT:  ld.shared.b64 {{%rd[0-9]+}}, [__dynamic_smem];

func.func @const_and_local(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
                           %group: index, %item: index, %table: !mem.ptr<!mem.array<16 x f32>, 4>,
                           %k: index, %out: !mem.ptr<f32, 1>)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) attributes {gpu.kernel} {
  %t = mem.lea %table, %item : !mem.ptr<!mem.array<16 x f32>, 4>
  %a4, %x = mem.load %m4, %t : !mem.ptr<f32, 4>
  %a5, %scratch = mem.slot %m5 : !mem.ptr<!mem.array<8 x f32>, 5>
  %l = mem.lea %scratch, %item : !mem.ptr<!mem.array<8 x f32>, 5>
  %b5 = mem.store %a5, %l, %x : !mem.ptr<f32, 5>
  %r = mem.lea %scratch, %k : !mem.ptr<!mem.array<8 x f32>, 5>
  %c5, %y = mem.load %b5, %r : !mem.ptr<f32, 5>
  %a1 = mem.store %m1, %out, %y : !mem.ptr<f32, 1>
  func.return %a1, %m3, %a4, %c5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}

// CHECK-LABEL: .visible .entry const_and_local(
// CHECK-NEXT:  .param .u64 .ptr .const .align 1 const_and_local_param_0,
// CHECK:       .local .align 4 .b8 __local_depot{{[0-9]+}}[32];
// CHECK:       ld.const.b32
// CHECK:       st.local.b32
// CHECK:       ld.local.b32

func.func @heap(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
                %group: index, %item: index, %n: index,
                %keep: !mem.ptr<!mem.ptr<!mem.array<? x i32>, 1>, 1>, %old: !mem.ptr<i64, 1>)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) attributes {gpu.kernel} {
  %a1, %buf = mem.alloc %m1, %n : !mem.ptr<!mem.array<? x i32>, 1>
  %b1 = mem.store %a1, %keep, %buf : !mem.ptr<!mem.ptr<!mem.array<? x i32>, 1>, 1>
  %c1 = mem.free %b1, %old : !mem.ptr<i64, 1>
  func.return %c1, %m3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}

// CHECK-LABEL: .visible .entry heap(
// CHECK:       call.uni (retval0), malloc, (param0);
// CHECK:       cvta.to.global.u64
// CHECK:       cvta.global.u64
// CHECK:       call.uni free, (param0);

func.func @math(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
                %group: index, %item: index, %io: !mem.ptr<!mem.array<? x f32>, 1>)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) attributes {gpu.kernel} {
  %p = mem.lea %io, %item : !mem.ptr<!mem.array<? x f32>, 1>
  %a1, %x = mem.load %m1, %p : !mem.ptr<f32, 1>
  %r = math.sqrt %x : f32
  %e = math.exp %r : f32
  %i = arith.fptosi %e : f32 to i32
  %u = arith.uitofp %i : i32 to f32
  %m = arith.maximumf %u, %x : f32
  %b1 = mem.store %a1, %p, %m : !mem.ptr<f32, 1>
  func.return %b1, %m3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}

// CHECK-LABEL: .visible .entry math(
// CHECK:       sqrt.rn.f32
// CHECK:       ex2.approx.ftz.f32
// CHECK:       cvt.rzi.s32.f32
// CHECK:       cvt.rn.f32.u32
// CHECK:       max.NaN.f32

// A device function that a kernel calls (at -O0 it stays a .func).
func.func @twice(%x: i32) -> i32 {
  %y = arith.addi %x, %x : i32
  func.return %y : i32
}

func.func @calls(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
                 %group: index, %item: index, %out: !mem.ptr<i32, 1>)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) attributes {gpu.kernel} {
  %i = arith.index_cast %item : index to i32
  %y = func.call @twice(%i) : (i32) -> i32
  %a1 = mem.store %m1, %out, %y : !mem.ptr<i32, 1>
  func.return %a1, %m3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}

// CHECK-LABEL: .visible .entry calls(
// CHECK:       shl.b32
// CHECK-NOT:   call

// O0-LABEL: .func  (.param .b32 func_retval0) twice(
// O0-LABEL: .visible .entry calls(
// O0:       call.uni (retval0), twice, (param0);
