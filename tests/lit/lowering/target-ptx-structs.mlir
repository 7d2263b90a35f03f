// RUN: gpu-opt %s -t 'ptx{sm=80}' | filecheck %s
// RUN: gpu-opt %s -t llvm | filecheck %s --check-prefix=LLVM

// The kernel ABI of a struct argument: one by-value PTX parameter, `.param .align A .b8
// name[size]`, holding the struct's bytes in C's layout (fields aligned to their size, the
// size rounded up to the largest alignment): here i32 @0, f32 @4, index @8, a global pointer
// @16, {i8 @24, f64 @32}: 40 bytes, aligned to 8. A struct of 4-byte fields is aligned to 4.

!inner = !llvm.struct<(i8, f64)>
!p = !llvm.struct<(i32, f32, index, !mem.ptr<!mem.array<? x f32>, 1>, !inner)>
!q = !llvm.struct<(f32, f32, i32)>

builtin.module attributes {gpu.device} {
  func.func @mixed(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
                   %group: index, %item: index, %p: !p)
      -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) attributes {gpu.kernel} {
    %n = llvm.extractvalue %p[2] : !p
    %out = llvm.extractvalue %p[3] : !p
    %d = llvm.extractvalue %p[4, 1] : !p
    %x = arith.truncf %d : f64 to f32
    %q = mem.lea %out, %n : !mem.ptr<!mem.array<? x f32>, 1>
    %m1b = mem.store %m1, %q, %x : !mem.ptr<f32, 1>
    func.return %m1b, %m3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
  }
  func.func @small(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
                   %group: index, %item: index, %out: !mem.ptr<f32, 1>, %p: !q)
      -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) attributes {gpu.kernel} {
    %x = llvm.extractvalue %p[1] : !q
    %m1b = mem.store %m1, %out, %x : !mem.ptr<f32, 1>
    func.return %m1b, %m3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
  }
}

// LLVM: define ptx_kernel void @mixed({ i32, float, i64, ptr addrspace(1), { i8, double } } %p)
// LLVM: define ptx_kernel void @small(ptr addrspace(1) %out, { float, float, i32 } %p)

// CHECK:      .visible .entry mixed(
// CHECK-NEXT:   .param .align 8 .b8 mixed_param_0[40]
// CHECK-NEXT: )
// CHECK-DAG:    ld.param.b64 {{.*}}, [mixed_param_0+8];
// CHECK-DAG:    ld.param.b64 {{.*}}, [mixed_param_0+16];
// CHECK-DAG:    ld.param.b64 {{.*}}, [mixed_param_0+32];
// CHECK:      .visible .entry small(
// CHECK-NEXT:   .param .u64 .ptr .global .align 1 small_param_0,
// CHECK-NEXT:   .param .align 4 .b8 small_param_1[12]
// CHECK-NEXT: )
// CHECK:        ld.param.b32 {{.*}}, [small_param_1+4];
