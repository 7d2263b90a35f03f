// RUN: gpu-opt %s -t 'ptx{sm=80}' > %t.sm80.ptx
// RUN: ptxas -arch=sm_80 %t.sm80.ptx -o %t.sm80.cubin
// RUN: gpu-opt %s -t 'ptx{sm=90}' > %t.sm90.ptx
// RUN: ptxas -arch=sm_90 %t.sm90.ptx -o %t.sm90.cubin
// RUN: gpu-opt %s -t 'ptx{sm=90 opt=0}' > %t.o0.ptx
// RUN: ptxas -arch=sm_90 %t.o0.ptx -o %t.o0.cubin
// RUN: filecheck %s < %t.sm90.ptx

// Every kind of work-group reduce and scan on every type NVPTX lowers them for (integers of 8 to
// 64 bits and index: add, mul, min, max, and, or, xor; f16, f32, f64: add, mul, min, max),
// one kernel per type that stores each result at out[k], assembles for sm_80 and sm_90,
// optimized or not. One static shared scratch per element type, 1024 elements.
// CHECK-DAG: .shared .align 16 .b8 __gpuir_wg_scratch_i8[1024];
// CHECK-DAG: .shared .align 16 .b8 __gpuir_wg_scratch_i16[2048];
// CHECK-DAG: .shared .align 16 .b8 __gpuir_wg_scratch_i32[4096];
// CHECK-DAG: .shared .align 16 .b8 __gpuir_wg_scratch_i64[8192];
// CHECK-DAG: .shared .align 16 .b8 __gpuir_wg_scratch_f16[2048];
// CHECK-DAG: .shared .align 16 .b8 __gpuir_wg_scratch_f32[4096];
// CHECK-DAG: .shared .align 16 .b8 __gpuir_wg_scratch_f64[8192];
// CHECK-DAG: bar.sync 0;
// CHECK-DAG: mov.u32 %r{{[0-9]+}}, %ntid.x;
// Reduce over a power-of-two group shuffles within warps (every type as 32-bit words) in a loop
// of log2(width) levels: offset, clamp and member mask in registers; warp 0's round over the
// warps' partials has the full mask.
// CHECK-DAG: shfl.sync.down.b32 {{.*}}%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}};
// CHECK-DAG: shfl.sync.down.b32 {{.*}}%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, -1;
// Integer scans: shfl.sync.up within warps, clamp 0, offsets 1 .. 16 (LLVM unrolls the loop).
// CHECK-DAG: shfl.sync.up.b32 {{.*}}, 1, 0, %r{{[0-9]+}};
// CHECK-DAG: shfl.sync.up.b32 {{.*}}, 16, 0, %r{{[0-9]+}};

builtin.module attributes {gpu.device} {
  func.func @collectives_i8(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
      %group: index, %item: index, %v: i8, %out: !mem.ptr<!mem.array<? x i8>, 1>)
      -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) attributes {gpu.kernel} {
    %c0 = arith.constant 0 : index
    %p0 = mem.lea %out, %c0 : !mem.ptr<!mem.array<? x i8>, 1>
    %r1_0, %r3_0, %r0 = gpu.workgroup_reduce "add" %m1, %m3, %v : i8
    %s1_0 = mem.store %r1_0, %p0, %r0 : !mem.ptr<i8, 1>
    %c1 = arith.constant 1 : index
    %p1 = mem.lea %out, %c1 : !mem.ptr<!mem.array<? x i8>, 1>
    %r1_1, %r3_1, %r1 = gpu.workgroup_scan "add" %s1_0, %r3_0, %v : i8
    %s1_1 = mem.store %r1_1, %p1, %r1 : !mem.ptr<i8, 1>
    %c2 = arith.constant 2 : index
    %p2 = mem.lea %out, %c2 : !mem.ptr<!mem.array<? x i8>, 1>
    %r1_2, %r3_2, %r2 = gpu.workgroup_reduce "mul" %s1_1, %r3_1, %v : i8
    %s1_2 = mem.store %r1_2, %p2, %r2 : !mem.ptr<i8, 1>
    %c3 = arith.constant 3 : index
    %p3 = mem.lea %out, %c3 : !mem.ptr<!mem.array<? x i8>, 1>
    %r1_3, %r3_3, %r3 = gpu.workgroup_scan "mul" %s1_2, %r3_2, %v : i8
    %s1_3 = mem.store %r1_3, %p3, %r3 : !mem.ptr<i8, 1>
    %c4 = arith.constant 4 : index
    %p4 = mem.lea %out, %c4 : !mem.ptr<!mem.array<? x i8>, 1>
    %r1_4, %r3_4, %r4 = gpu.workgroup_reduce "min" %s1_3, %r3_3, %v : i8
    %s1_4 = mem.store %r1_4, %p4, %r4 : !mem.ptr<i8, 1>
    %c5 = arith.constant 5 : index
    %p5 = mem.lea %out, %c5 : !mem.ptr<!mem.array<? x i8>, 1>
    %r1_5, %r3_5, %r5 = gpu.workgroup_scan "min" %s1_4, %r3_4, %v : i8
    %s1_5 = mem.store %r1_5, %p5, %r5 : !mem.ptr<i8, 1>
    %c6 = arith.constant 6 : index
    %p6 = mem.lea %out, %c6 : !mem.ptr<!mem.array<? x i8>, 1>
    %r1_6, %r3_6, %r6 = gpu.workgroup_reduce "max" %s1_5, %r3_5, %v : i8
    %s1_6 = mem.store %r1_6, %p6, %r6 : !mem.ptr<i8, 1>
    %c7 = arith.constant 7 : index
    %p7 = mem.lea %out, %c7 : !mem.ptr<!mem.array<? x i8>, 1>
    %r1_7, %r3_7, %r7 = gpu.workgroup_scan "max" %s1_6, %r3_6, %v : i8
    %s1_7 = mem.store %r1_7, %p7, %r7 : !mem.ptr<i8, 1>
    %c8 = arith.constant 8 : index
    %p8 = mem.lea %out, %c8 : !mem.ptr<!mem.array<? x i8>, 1>
    %r1_8, %r3_8, %r8 = gpu.workgroup_reduce "and" %s1_7, %r3_7, %v : i8
    %s1_8 = mem.store %r1_8, %p8, %r8 : !mem.ptr<i8, 1>
    %c9 = arith.constant 9 : index
    %p9 = mem.lea %out, %c9 : !mem.ptr<!mem.array<? x i8>, 1>
    %r1_9, %r3_9, %r9 = gpu.workgroup_scan "and" %s1_8, %r3_8, %v : i8
    %s1_9 = mem.store %r1_9, %p9, %r9 : !mem.ptr<i8, 1>
    %c10 = arith.constant 10 : index
    %p10 = mem.lea %out, %c10 : !mem.ptr<!mem.array<? x i8>, 1>
    %r1_10, %r3_10, %r10 = gpu.workgroup_reduce "or" %s1_9, %r3_9, %v : i8
    %s1_10 = mem.store %r1_10, %p10, %r10 : !mem.ptr<i8, 1>
    %c11 = arith.constant 11 : index
    %p11 = mem.lea %out, %c11 : !mem.ptr<!mem.array<? x i8>, 1>
    %r1_11, %r3_11, %r11 = gpu.workgroup_scan "or" %s1_10, %r3_10, %v : i8
    %s1_11 = mem.store %r1_11, %p11, %r11 : !mem.ptr<i8, 1>
    %c12 = arith.constant 12 : index
    %p12 = mem.lea %out, %c12 : !mem.ptr<!mem.array<? x i8>, 1>
    %r1_12, %r3_12, %r12 = gpu.workgroup_reduce "xor" %s1_11, %r3_11, %v : i8
    %s1_12 = mem.store %r1_12, %p12, %r12 : !mem.ptr<i8, 1>
    %c13 = arith.constant 13 : index
    %p13 = mem.lea %out, %c13 : !mem.ptr<!mem.array<? x i8>, 1>
    %r1_13, %r3_13, %r13 = gpu.workgroup_scan "xor" %s1_12, %r3_12, %v : i8
    %s1_13 = mem.store %r1_13, %p13, %r13 : !mem.ptr<i8, 1>
    func.return %s1_13, %r3_13, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
  }
  func.func @collectives_i16(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
      %group: index, %item: index, %v: i16, %out: !mem.ptr<!mem.array<? x i16>, 1>)
      -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) attributes {gpu.kernel} {
    %c0 = arith.constant 0 : index
    %p0 = mem.lea %out, %c0 : !mem.ptr<!mem.array<? x i16>, 1>
    %r1_0, %r3_0, %r0 = gpu.workgroup_reduce "add" %m1, %m3, %v : i16
    %s1_0 = mem.store %r1_0, %p0, %r0 : !mem.ptr<i16, 1>
    %c1 = arith.constant 1 : index
    %p1 = mem.lea %out, %c1 : !mem.ptr<!mem.array<? x i16>, 1>
    %r1_1, %r3_1, %r1 = gpu.workgroup_scan "add" %s1_0, %r3_0, %v : i16
    %s1_1 = mem.store %r1_1, %p1, %r1 : !mem.ptr<i16, 1>
    %c2 = arith.constant 2 : index
    %p2 = mem.lea %out, %c2 : !mem.ptr<!mem.array<? x i16>, 1>
    %r1_2, %r3_2, %r2 = gpu.workgroup_reduce "mul" %s1_1, %r3_1, %v : i16
    %s1_2 = mem.store %r1_2, %p2, %r2 : !mem.ptr<i16, 1>
    %c3 = arith.constant 3 : index
    %p3 = mem.lea %out, %c3 : !mem.ptr<!mem.array<? x i16>, 1>
    %r1_3, %r3_3, %r3 = gpu.workgroup_scan "mul" %s1_2, %r3_2, %v : i16
    %s1_3 = mem.store %r1_3, %p3, %r3 : !mem.ptr<i16, 1>
    %c4 = arith.constant 4 : index
    %p4 = mem.lea %out, %c4 : !mem.ptr<!mem.array<? x i16>, 1>
    %r1_4, %r3_4, %r4 = gpu.workgroup_reduce "min" %s1_3, %r3_3, %v : i16
    %s1_4 = mem.store %r1_4, %p4, %r4 : !mem.ptr<i16, 1>
    %c5 = arith.constant 5 : index
    %p5 = mem.lea %out, %c5 : !mem.ptr<!mem.array<? x i16>, 1>
    %r1_5, %r3_5, %r5 = gpu.workgroup_scan "min" %s1_4, %r3_4, %v : i16
    %s1_5 = mem.store %r1_5, %p5, %r5 : !mem.ptr<i16, 1>
    %c6 = arith.constant 6 : index
    %p6 = mem.lea %out, %c6 : !mem.ptr<!mem.array<? x i16>, 1>
    %r1_6, %r3_6, %r6 = gpu.workgroup_reduce "max" %s1_5, %r3_5, %v : i16
    %s1_6 = mem.store %r1_6, %p6, %r6 : !mem.ptr<i16, 1>
    %c7 = arith.constant 7 : index
    %p7 = mem.lea %out, %c7 : !mem.ptr<!mem.array<? x i16>, 1>
    %r1_7, %r3_7, %r7 = gpu.workgroup_scan "max" %s1_6, %r3_6, %v : i16
    %s1_7 = mem.store %r1_7, %p7, %r7 : !mem.ptr<i16, 1>
    %c8 = arith.constant 8 : index
    %p8 = mem.lea %out, %c8 : !mem.ptr<!mem.array<? x i16>, 1>
    %r1_8, %r3_8, %r8 = gpu.workgroup_reduce "and" %s1_7, %r3_7, %v : i16
    %s1_8 = mem.store %r1_8, %p8, %r8 : !mem.ptr<i16, 1>
    %c9 = arith.constant 9 : index
    %p9 = mem.lea %out, %c9 : !mem.ptr<!mem.array<? x i16>, 1>
    %r1_9, %r3_9, %r9 = gpu.workgroup_scan "and" %s1_8, %r3_8, %v : i16
    %s1_9 = mem.store %r1_9, %p9, %r9 : !mem.ptr<i16, 1>
    %c10 = arith.constant 10 : index
    %p10 = mem.lea %out, %c10 : !mem.ptr<!mem.array<? x i16>, 1>
    %r1_10, %r3_10, %r10 = gpu.workgroup_reduce "or" %s1_9, %r3_9, %v : i16
    %s1_10 = mem.store %r1_10, %p10, %r10 : !mem.ptr<i16, 1>
    %c11 = arith.constant 11 : index
    %p11 = mem.lea %out, %c11 : !mem.ptr<!mem.array<? x i16>, 1>
    %r1_11, %r3_11, %r11 = gpu.workgroup_scan "or" %s1_10, %r3_10, %v : i16
    %s1_11 = mem.store %r1_11, %p11, %r11 : !mem.ptr<i16, 1>
    %c12 = arith.constant 12 : index
    %p12 = mem.lea %out, %c12 : !mem.ptr<!mem.array<? x i16>, 1>
    %r1_12, %r3_12, %r12 = gpu.workgroup_reduce "xor" %s1_11, %r3_11, %v : i16
    %s1_12 = mem.store %r1_12, %p12, %r12 : !mem.ptr<i16, 1>
    %c13 = arith.constant 13 : index
    %p13 = mem.lea %out, %c13 : !mem.ptr<!mem.array<? x i16>, 1>
    %r1_13, %r3_13, %r13 = gpu.workgroup_scan "xor" %s1_12, %r3_12, %v : i16
    %s1_13 = mem.store %r1_13, %p13, %r13 : !mem.ptr<i16, 1>
    func.return %s1_13, %r3_13, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
  }
  func.func @collectives_i32(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
      %group: index, %item: index, %v: i32, %out: !mem.ptr<!mem.array<? x i32>, 1>)
      -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) attributes {gpu.kernel} {
    %c0 = arith.constant 0 : index
    %p0 = mem.lea %out, %c0 : !mem.ptr<!mem.array<? x i32>, 1>
    %r1_0, %r3_0, %r0 = gpu.workgroup_reduce "add" %m1, %m3, %v : i32
    %s1_0 = mem.store %r1_0, %p0, %r0 : !mem.ptr<i32, 1>
    %c1 = arith.constant 1 : index
    %p1 = mem.lea %out, %c1 : !mem.ptr<!mem.array<? x i32>, 1>
    %r1_1, %r3_1, %r1 = gpu.workgroup_scan "add" %s1_0, %r3_0, %v : i32
    %s1_1 = mem.store %r1_1, %p1, %r1 : !mem.ptr<i32, 1>
    %c2 = arith.constant 2 : index
    %p2 = mem.lea %out, %c2 : !mem.ptr<!mem.array<? x i32>, 1>
    %r1_2, %r3_2, %r2 = gpu.workgroup_reduce "mul" %s1_1, %r3_1, %v : i32
    %s1_2 = mem.store %r1_2, %p2, %r2 : !mem.ptr<i32, 1>
    %c3 = arith.constant 3 : index
    %p3 = mem.lea %out, %c3 : !mem.ptr<!mem.array<? x i32>, 1>
    %r1_3, %r3_3, %r3 = gpu.workgroup_scan "mul" %s1_2, %r3_2, %v : i32
    %s1_3 = mem.store %r1_3, %p3, %r3 : !mem.ptr<i32, 1>
    %c4 = arith.constant 4 : index
    %p4 = mem.lea %out, %c4 : !mem.ptr<!mem.array<? x i32>, 1>
    %r1_4, %r3_4, %r4 = gpu.workgroup_reduce "min" %s1_3, %r3_3, %v : i32
    %s1_4 = mem.store %r1_4, %p4, %r4 : !mem.ptr<i32, 1>
    %c5 = arith.constant 5 : index
    %p5 = mem.lea %out, %c5 : !mem.ptr<!mem.array<? x i32>, 1>
    %r1_5, %r3_5, %r5 = gpu.workgroup_scan "min" %s1_4, %r3_4, %v : i32
    %s1_5 = mem.store %r1_5, %p5, %r5 : !mem.ptr<i32, 1>
    %c6 = arith.constant 6 : index
    %p6 = mem.lea %out, %c6 : !mem.ptr<!mem.array<? x i32>, 1>
    %r1_6, %r3_6, %r6 = gpu.workgroup_reduce "max" %s1_5, %r3_5, %v : i32
    %s1_6 = mem.store %r1_6, %p6, %r6 : !mem.ptr<i32, 1>
    %c7 = arith.constant 7 : index
    %p7 = mem.lea %out, %c7 : !mem.ptr<!mem.array<? x i32>, 1>
    %r1_7, %r3_7, %r7 = gpu.workgroup_scan "max" %s1_6, %r3_6, %v : i32
    %s1_7 = mem.store %r1_7, %p7, %r7 : !mem.ptr<i32, 1>
    %c8 = arith.constant 8 : index
    %p8 = mem.lea %out, %c8 : !mem.ptr<!mem.array<? x i32>, 1>
    %r1_8, %r3_8, %r8 = gpu.workgroup_reduce "and" %s1_7, %r3_7, %v : i32
    %s1_8 = mem.store %r1_8, %p8, %r8 : !mem.ptr<i32, 1>
    %c9 = arith.constant 9 : index
    %p9 = mem.lea %out, %c9 : !mem.ptr<!mem.array<? x i32>, 1>
    %r1_9, %r3_9, %r9 = gpu.workgroup_scan "and" %s1_8, %r3_8, %v : i32
    %s1_9 = mem.store %r1_9, %p9, %r9 : !mem.ptr<i32, 1>
    %c10 = arith.constant 10 : index
    %p10 = mem.lea %out, %c10 : !mem.ptr<!mem.array<? x i32>, 1>
    %r1_10, %r3_10, %r10 = gpu.workgroup_reduce "or" %s1_9, %r3_9, %v : i32
    %s1_10 = mem.store %r1_10, %p10, %r10 : !mem.ptr<i32, 1>
    %c11 = arith.constant 11 : index
    %p11 = mem.lea %out, %c11 : !mem.ptr<!mem.array<? x i32>, 1>
    %r1_11, %r3_11, %r11 = gpu.workgroup_scan "or" %s1_10, %r3_10, %v : i32
    %s1_11 = mem.store %r1_11, %p11, %r11 : !mem.ptr<i32, 1>
    %c12 = arith.constant 12 : index
    %p12 = mem.lea %out, %c12 : !mem.ptr<!mem.array<? x i32>, 1>
    %r1_12, %r3_12, %r12 = gpu.workgroup_reduce "xor" %s1_11, %r3_11, %v : i32
    %s1_12 = mem.store %r1_12, %p12, %r12 : !mem.ptr<i32, 1>
    %c13 = arith.constant 13 : index
    %p13 = mem.lea %out, %c13 : !mem.ptr<!mem.array<? x i32>, 1>
    %r1_13, %r3_13, %r13 = gpu.workgroup_scan "xor" %s1_12, %r3_12, %v : i32
    %s1_13 = mem.store %r1_13, %p13, %r13 : !mem.ptr<i32, 1>
    func.return %s1_13, %r3_13, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
  }
  func.func @collectives_i64(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
      %group: index, %item: index, %v: i64, %out: !mem.ptr<!mem.array<? x i64>, 1>)
      -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) attributes {gpu.kernel} {
    %c0 = arith.constant 0 : index
    %p0 = mem.lea %out, %c0 : !mem.ptr<!mem.array<? x i64>, 1>
    %r1_0, %r3_0, %r0 = gpu.workgroup_reduce "add" %m1, %m3, %v : i64
    %s1_0 = mem.store %r1_0, %p0, %r0 : !mem.ptr<i64, 1>
    %c1 = arith.constant 1 : index
    %p1 = mem.lea %out, %c1 : !mem.ptr<!mem.array<? x i64>, 1>
    %r1_1, %r3_1, %r1 = gpu.workgroup_scan "add" %s1_0, %r3_0, %v : i64
    %s1_1 = mem.store %r1_1, %p1, %r1 : !mem.ptr<i64, 1>
    %c2 = arith.constant 2 : index
    %p2 = mem.lea %out, %c2 : !mem.ptr<!mem.array<? x i64>, 1>
    %r1_2, %r3_2, %r2 = gpu.workgroup_reduce "mul" %s1_1, %r3_1, %v : i64
    %s1_2 = mem.store %r1_2, %p2, %r2 : !mem.ptr<i64, 1>
    %c3 = arith.constant 3 : index
    %p3 = mem.lea %out, %c3 : !mem.ptr<!mem.array<? x i64>, 1>
    %r1_3, %r3_3, %r3 = gpu.workgroup_scan "mul" %s1_2, %r3_2, %v : i64
    %s1_3 = mem.store %r1_3, %p3, %r3 : !mem.ptr<i64, 1>
    %c4 = arith.constant 4 : index
    %p4 = mem.lea %out, %c4 : !mem.ptr<!mem.array<? x i64>, 1>
    %r1_4, %r3_4, %r4 = gpu.workgroup_reduce "min" %s1_3, %r3_3, %v : i64
    %s1_4 = mem.store %r1_4, %p4, %r4 : !mem.ptr<i64, 1>
    %c5 = arith.constant 5 : index
    %p5 = mem.lea %out, %c5 : !mem.ptr<!mem.array<? x i64>, 1>
    %r1_5, %r3_5, %r5 = gpu.workgroup_scan "min" %s1_4, %r3_4, %v : i64
    %s1_5 = mem.store %r1_5, %p5, %r5 : !mem.ptr<i64, 1>
    %c6 = arith.constant 6 : index
    %p6 = mem.lea %out, %c6 : !mem.ptr<!mem.array<? x i64>, 1>
    %r1_6, %r3_6, %r6 = gpu.workgroup_reduce "max" %s1_5, %r3_5, %v : i64
    %s1_6 = mem.store %r1_6, %p6, %r6 : !mem.ptr<i64, 1>
    %c7 = arith.constant 7 : index
    %p7 = mem.lea %out, %c7 : !mem.ptr<!mem.array<? x i64>, 1>
    %r1_7, %r3_7, %r7 = gpu.workgroup_scan "max" %s1_6, %r3_6, %v : i64
    %s1_7 = mem.store %r1_7, %p7, %r7 : !mem.ptr<i64, 1>
    %c8 = arith.constant 8 : index
    %p8 = mem.lea %out, %c8 : !mem.ptr<!mem.array<? x i64>, 1>
    %r1_8, %r3_8, %r8 = gpu.workgroup_reduce "and" %s1_7, %r3_7, %v : i64
    %s1_8 = mem.store %r1_8, %p8, %r8 : !mem.ptr<i64, 1>
    %c9 = arith.constant 9 : index
    %p9 = mem.lea %out, %c9 : !mem.ptr<!mem.array<? x i64>, 1>
    %r1_9, %r3_9, %r9 = gpu.workgroup_scan "and" %s1_8, %r3_8, %v : i64
    %s1_9 = mem.store %r1_9, %p9, %r9 : !mem.ptr<i64, 1>
    %c10 = arith.constant 10 : index
    %p10 = mem.lea %out, %c10 : !mem.ptr<!mem.array<? x i64>, 1>
    %r1_10, %r3_10, %r10 = gpu.workgroup_reduce "or" %s1_9, %r3_9, %v : i64
    %s1_10 = mem.store %r1_10, %p10, %r10 : !mem.ptr<i64, 1>
    %c11 = arith.constant 11 : index
    %p11 = mem.lea %out, %c11 : !mem.ptr<!mem.array<? x i64>, 1>
    %r1_11, %r3_11, %r11 = gpu.workgroup_scan "or" %s1_10, %r3_10, %v : i64
    %s1_11 = mem.store %r1_11, %p11, %r11 : !mem.ptr<i64, 1>
    %c12 = arith.constant 12 : index
    %p12 = mem.lea %out, %c12 : !mem.ptr<!mem.array<? x i64>, 1>
    %r1_12, %r3_12, %r12 = gpu.workgroup_reduce "xor" %s1_11, %r3_11, %v : i64
    %s1_12 = mem.store %r1_12, %p12, %r12 : !mem.ptr<i64, 1>
    %c13 = arith.constant 13 : index
    %p13 = mem.lea %out, %c13 : !mem.ptr<!mem.array<? x i64>, 1>
    %r1_13, %r3_13, %r13 = gpu.workgroup_scan "xor" %s1_12, %r3_12, %v : i64
    %s1_13 = mem.store %r1_13, %p13, %r13 : !mem.ptr<i64, 1>
    func.return %s1_13, %r3_13, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
  }
  func.func @collectives_index(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
      %group: index, %item: index, %v: index, %out: !mem.ptr<!mem.array<? x index>, 1>)
      -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) attributes {gpu.kernel} {
    %c0 = arith.constant 0 : index
    %p0 = mem.lea %out, %c0 : !mem.ptr<!mem.array<? x index>, 1>
    %r1_0, %r3_0, %r0 = gpu.workgroup_reduce "add" %m1, %m3, %v : index
    %s1_0 = mem.store %r1_0, %p0, %r0 : !mem.ptr<index, 1>
    %c1 = arith.constant 1 : index
    %p1 = mem.lea %out, %c1 : !mem.ptr<!mem.array<? x index>, 1>
    %r1_1, %r3_1, %r1 = gpu.workgroup_scan "add" %s1_0, %r3_0, %v : index
    %s1_1 = mem.store %r1_1, %p1, %r1 : !mem.ptr<index, 1>
    %c2 = arith.constant 2 : index
    %p2 = mem.lea %out, %c2 : !mem.ptr<!mem.array<? x index>, 1>
    %r1_2, %r3_2, %r2 = gpu.workgroup_reduce "mul" %s1_1, %r3_1, %v : index
    %s1_2 = mem.store %r1_2, %p2, %r2 : !mem.ptr<index, 1>
    %c3 = arith.constant 3 : index
    %p3 = mem.lea %out, %c3 : !mem.ptr<!mem.array<? x index>, 1>
    %r1_3, %r3_3, %r3 = gpu.workgroup_scan "mul" %s1_2, %r3_2, %v : index
    %s1_3 = mem.store %r1_3, %p3, %r3 : !mem.ptr<index, 1>
    %c4 = arith.constant 4 : index
    %p4 = mem.lea %out, %c4 : !mem.ptr<!mem.array<? x index>, 1>
    %r1_4, %r3_4, %r4 = gpu.workgroup_reduce "min" %s1_3, %r3_3, %v : index
    %s1_4 = mem.store %r1_4, %p4, %r4 : !mem.ptr<index, 1>
    %c5 = arith.constant 5 : index
    %p5 = mem.lea %out, %c5 : !mem.ptr<!mem.array<? x index>, 1>
    %r1_5, %r3_5, %r5 = gpu.workgroup_scan "min" %s1_4, %r3_4, %v : index
    %s1_5 = mem.store %r1_5, %p5, %r5 : !mem.ptr<index, 1>
    %c6 = arith.constant 6 : index
    %p6 = mem.lea %out, %c6 : !mem.ptr<!mem.array<? x index>, 1>
    %r1_6, %r3_6, %r6 = gpu.workgroup_reduce "max" %s1_5, %r3_5, %v : index
    %s1_6 = mem.store %r1_6, %p6, %r6 : !mem.ptr<index, 1>
    %c7 = arith.constant 7 : index
    %p7 = mem.lea %out, %c7 : !mem.ptr<!mem.array<? x index>, 1>
    %r1_7, %r3_7, %r7 = gpu.workgroup_scan "max" %s1_6, %r3_6, %v : index
    %s1_7 = mem.store %r1_7, %p7, %r7 : !mem.ptr<index, 1>
    %c8 = arith.constant 8 : index
    %p8 = mem.lea %out, %c8 : !mem.ptr<!mem.array<? x index>, 1>
    %r1_8, %r3_8, %r8 = gpu.workgroup_reduce "and" %s1_7, %r3_7, %v : index
    %s1_8 = mem.store %r1_8, %p8, %r8 : !mem.ptr<index, 1>
    %c9 = arith.constant 9 : index
    %p9 = mem.lea %out, %c9 : !mem.ptr<!mem.array<? x index>, 1>
    %r1_9, %r3_9, %r9 = gpu.workgroup_scan "and" %s1_8, %r3_8, %v : index
    %s1_9 = mem.store %r1_9, %p9, %r9 : !mem.ptr<index, 1>
    %c10 = arith.constant 10 : index
    %p10 = mem.lea %out, %c10 : !mem.ptr<!mem.array<? x index>, 1>
    %r1_10, %r3_10, %r10 = gpu.workgroup_reduce "or" %s1_9, %r3_9, %v : index
    %s1_10 = mem.store %r1_10, %p10, %r10 : !mem.ptr<index, 1>
    %c11 = arith.constant 11 : index
    %p11 = mem.lea %out, %c11 : !mem.ptr<!mem.array<? x index>, 1>
    %r1_11, %r3_11, %r11 = gpu.workgroup_scan "or" %s1_10, %r3_10, %v : index
    %s1_11 = mem.store %r1_11, %p11, %r11 : !mem.ptr<index, 1>
    %c12 = arith.constant 12 : index
    %p12 = mem.lea %out, %c12 : !mem.ptr<!mem.array<? x index>, 1>
    %r1_12, %r3_12, %r12 = gpu.workgroup_reduce "xor" %s1_11, %r3_11, %v : index
    %s1_12 = mem.store %r1_12, %p12, %r12 : !mem.ptr<index, 1>
    %c13 = arith.constant 13 : index
    %p13 = mem.lea %out, %c13 : !mem.ptr<!mem.array<? x index>, 1>
    %r1_13, %r3_13, %r13 = gpu.workgroup_scan "xor" %s1_12, %r3_12, %v : index
    %s1_13 = mem.store %r1_13, %p13, %r13 : !mem.ptr<index, 1>
    func.return %s1_13, %r3_13, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
  }
  func.func @collectives_f16(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
      %group: index, %item: index, %v: f16, %out: !mem.ptr<!mem.array<? x f16>, 1>)
      -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) attributes {gpu.kernel} {
    %c0 = arith.constant 0 : index
    %p0 = mem.lea %out, %c0 : !mem.ptr<!mem.array<? x f16>, 1>
    %r1_0, %r3_0, %r0 = gpu.workgroup_reduce "add" %m1, %m3, %v : f16
    %s1_0 = mem.store %r1_0, %p0, %r0 : !mem.ptr<f16, 1>
    %c1 = arith.constant 1 : index
    %p1 = mem.lea %out, %c1 : !mem.ptr<!mem.array<? x f16>, 1>
    %r1_1, %r3_1, %r1 = gpu.workgroup_scan "add" %s1_0, %r3_0, %v : f16
    %s1_1 = mem.store %r1_1, %p1, %r1 : !mem.ptr<f16, 1>
    %c2 = arith.constant 2 : index
    %p2 = mem.lea %out, %c2 : !mem.ptr<!mem.array<? x f16>, 1>
    %r1_2, %r3_2, %r2 = gpu.workgroup_reduce "mul" %s1_1, %r3_1, %v : f16
    %s1_2 = mem.store %r1_2, %p2, %r2 : !mem.ptr<f16, 1>
    %c3 = arith.constant 3 : index
    %p3 = mem.lea %out, %c3 : !mem.ptr<!mem.array<? x f16>, 1>
    %r1_3, %r3_3, %r3 = gpu.workgroup_scan "mul" %s1_2, %r3_2, %v : f16
    %s1_3 = mem.store %r1_3, %p3, %r3 : !mem.ptr<f16, 1>
    %c4 = arith.constant 4 : index
    %p4 = mem.lea %out, %c4 : !mem.ptr<!mem.array<? x f16>, 1>
    %r1_4, %r3_4, %r4 = gpu.workgroup_reduce "min" %s1_3, %r3_3, %v : f16
    %s1_4 = mem.store %r1_4, %p4, %r4 : !mem.ptr<f16, 1>
    %c5 = arith.constant 5 : index
    %p5 = mem.lea %out, %c5 : !mem.ptr<!mem.array<? x f16>, 1>
    %r1_5, %r3_5, %r5 = gpu.workgroup_scan "min" %s1_4, %r3_4, %v : f16
    %s1_5 = mem.store %r1_5, %p5, %r5 : !mem.ptr<f16, 1>
    %c6 = arith.constant 6 : index
    %p6 = mem.lea %out, %c6 : !mem.ptr<!mem.array<? x f16>, 1>
    %r1_6, %r3_6, %r6 = gpu.workgroup_reduce "max" %s1_5, %r3_5, %v : f16
    %s1_6 = mem.store %r1_6, %p6, %r6 : !mem.ptr<f16, 1>
    %c7 = arith.constant 7 : index
    %p7 = mem.lea %out, %c7 : !mem.ptr<!mem.array<? x f16>, 1>
    %r1_7, %r3_7, %r7 = gpu.workgroup_scan "max" %s1_6, %r3_6, %v : f16
    %s1_7 = mem.store %r1_7, %p7, %r7 : !mem.ptr<f16, 1>
    func.return %s1_7, %r3_7, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
  }
  func.func @collectives_f32(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
      %group: index, %item: index, %v: f32, %out: !mem.ptr<!mem.array<? x f32>, 1>)
      -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) attributes {gpu.kernel} {
    %c0 = arith.constant 0 : index
    %p0 = mem.lea %out, %c0 : !mem.ptr<!mem.array<? x f32>, 1>
    %r1_0, %r3_0, %r0 = gpu.workgroup_reduce "add" %m1, %m3, %v : f32
    %s1_0 = mem.store %r1_0, %p0, %r0 : !mem.ptr<f32, 1>
    %c1 = arith.constant 1 : index
    %p1 = mem.lea %out, %c1 : !mem.ptr<!mem.array<? x f32>, 1>
    %r1_1, %r3_1, %r1 = gpu.workgroup_scan "add" %s1_0, %r3_0, %v : f32
    %s1_1 = mem.store %r1_1, %p1, %r1 : !mem.ptr<f32, 1>
    %c2 = arith.constant 2 : index
    %p2 = mem.lea %out, %c2 : !mem.ptr<!mem.array<? x f32>, 1>
    %r1_2, %r3_2, %r2 = gpu.workgroup_reduce "mul" %s1_1, %r3_1, %v : f32
    %s1_2 = mem.store %r1_2, %p2, %r2 : !mem.ptr<f32, 1>
    %c3 = arith.constant 3 : index
    %p3 = mem.lea %out, %c3 : !mem.ptr<!mem.array<? x f32>, 1>
    %r1_3, %r3_3, %r3 = gpu.workgroup_scan "mul" %s1_2, %r3_2, %v : f32
    %s1_3 = mem.store %r1_3, %p3, %r3 : !mem.ptr<f32, 1>
    %c4 = arith.constant 4 : index
    %p4 = mem.lea %out, %c4 : !mem.ptr<!mem.array<? x f32>, 1>
    %r1_4, %r3_4, %r4 = gpu.workgroup_reduce "min" %s1_3, %r3_3, %v : f32
    %s1_4 = mem.store %r1_4, %p4, %r4 : !mem.ptr<f32, 1>
    %c5 = arith.constant 5 : index
    %p5 = mem.lea %out, %c5 : !mem.ptr<!mem.array<? x f32>, 1>
    %r1_5, %r3_5, %r5 = gpu.workgroup_scan "min" %s1_4, %r3_4, %v : f32
    %s1_5 = mem.store %r1_5, %p5, %r5 : !mem.ptr<f32, 1>
    %c6 = arith.constant 6 : index
    %p6 = mem.lea %out, %c6 : !mem.ptr<!mem.array<? x f32>, 1>
    %r1_6, %r3_6, %r6 = gpu.workgroup_reduce "max" %s1_5, %r3_5, %v : f32
    %s1_6 = mem.store %r1_6, %p6, %r6 : !mem.ptr<f32, 1>
    %c7 = arith.constant 7 : index
    %p7 = mem.lea %out, %c7 : !mem.ptr<!mem.array<? x f32>, 1>
    %r1_7, %r3_7, %r7 = gpu.workgroup_scan "max" %s1_6, %r3_6, %v : f32
    %s1_7 = mem.store %r1_7, %p7, %r7 : !mem.ptr<f32, 1>
    func.return %s1_7, %r3_7, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
  }
  func.func @collectives_f64(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
      %group: index, %item: index, %v: f64, %out: !mem.ptr<!mem.array<? x f64>, 1>)
      -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) attributes {gpu.kernel} {
    %c0 = arith.constant 0 : index
    %p0 = mem.lea %out, %c0 : !mem.ptr<!mem.array<? x f64>, 1>
    %r1_0, %r3_0, %r0 = gpu.workgroup_reduce "add" %m1, %m3, %v : f64
    %s1_0 = mem.store %r1_0, %p0, %r0 : !mem.ptr<f64, 1>
    %c1 = arith.constant 1 : index
    %p1 = mem.lea %out, %c1 : !mem.ptr<!mem.array<? x f64>, 1>
    %r1_1, %r3_1, %r1 = gpu.workgroup_scan "add" %s1_0, %r3_0, %v : f64
    %s1_1 = mem.store %r1_1, %p1, %r1 : !mem.ptr<f64, 1>
    %c2 = arith.constant 2 : index
    %p2 = mem.lea %out, %c2 : !mem.ptr<!mem.array<? x f64>, 1>
    %r1_2, %r3_2, %r2 = gpu.workgroup_reduce "mul" %s1_1, %r3_1, %v : f64
    %s1_2 = mem.store %r1_2, %p2, %r2 : !mem.ptr<f64, 1>
    %c3 = arith.constant 3 : index
    %p3 = mem.lea %out, %c3 : !mem.ptr<!mem.array<? x f64>, 1>
    %r1_3, %r3_3, %r3 = gpu.workgroup_scan "mul" %s1_2, %r3_2, %v : f64
    %s1_3 = mem.store %r1_3, %p3, %r3 : !mem.ptr<f64, 1>
    %c4 = arith.constant 4 : index
    %p4 = mem.lea %out, %c4 : !mem.ptr<!mem.array<? x f64>, 1>
    %r1_4, %r3_4, %r4 = gpu.workgroup_reduce "min" %s1_3, %r3_3, %v : f64
    %s1_4 = mem.store %r1_4, %p4, %r4 : !mem.ptr<f64, 1>
    %c5 = arith.constant 5 : index
    %p5 = mem.lea %out, %c5 : !mem.ptr<!mem.array<? x f64>, 1>
    %r1_5, %r3_5, %r5 = gpu.workgroup_scan "min" %s1_4, %r3_4, %v : f64
    %s1_5 = mem.store %r1_5, %p5, %r5 : !mem.ptr<f64, 1>
    %c6 = arith.constant 6 : index
    %p6 = mem.lea %out, %c6 : !mem.ptr<!mem.array<? x f64>, 1>
    %r1_6, %r3_6, %r6 = gpu.workgroup_reduce "max" %s1_5, %r3_5, %v : f64
    %s1_6 = mem.store %r1_6, %p6, %r6 : !mem.ptr<f64, 1>
    %c7 = arith.constant 7 : index
    %p7 = mem.lea %out, %c7 : !mem.ptr<!mem.array<? x f64>, 1>
    %r1_7, %r3_7, %r7 = gpu.workgroup_scan "max" %s1_6, %r3_6, %v : f64
    %s1_7 = mem.store %r1_7, %p7, %r7 : !mem.ptr<f64, 1>
    func.return %s1_7, %r3_7, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
  }
}
