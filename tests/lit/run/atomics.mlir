// Atomics on every provider that runs here: 4 groups of 64 items update one global cell per
// kind (and a shared one per group for add), so that the results do not depend on the order of
// the items: integer add/sub/max/min/umax/umin/and/or/xor on i32 and i64, float add of whole
// numbers, float max/min, xchg by one item, and a counter that every item increments with a
// compare-and-swap loop (CUDA's atomicCAS idiom); fences at all three scopes; the lanes.
// RUN: gpu-run %s --provider cpu | filecheck %s
// RUN: gpu-run %s --provider interp | filecheck %s
// RUN: gpu-opt %s -p gpu-pipeline -t ptx | filecheck %s --check-prefix=PTX
// CHECK:      i32: 32640 -32640 255 0 -1 -256 -256 255 0
// CHECK-NEXT: i64: 32640 -32640 255 0 -1 -256 -256 255 0
// CHECK-NEXT: f32: 32640.0 255.0 -7.0
// CHECK-NEXT: xchg: 7 42
// CHECK-NEXT: cas: 256
// CHECK-NEXT: shared: 2016 6112 10208 14304
// CHECK-NEXT: lanes: 0 31 0 31
// CHECK-EMPTY:
// PTX-DAG: atom.global.add.u32
// PTX-DAG: atom.global.max.s32
// PTX-DAG: atom.global.min.u64
// PTX-DAG: atom.global.or.b64
// PTX-DAG: atom.global.add.f32
// PTX-DAG: atom.relaxed.gpu.global.cas.b32
// PTX-DAG: atom.shared.add.u32
// PTX-DAG: fence.sc.cta
// PTX-DAG: fence.sc.gpu
// PTX-DAG: fence.sc.sys
// PTX-DAG: %laneid

// The cells: 9 i32, 9 i64 (add sub max min umax umin and or xor), 3 f32 (add max min), an
// xchg cell, the CAS counter, 4 shared sums, 4 lanes.
func.func @kernel(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
                  %group: index, %item: index, %ints: !mem.ptr<!mem.array<9 x i32>, 1>,
                  %longs: !mem.ptr<!mem.array<9 x i64>, 1>, %floats: !mem.ptr<!mem.array<3 x f32>, 1>,
                  %misc: !mem.ptr<!mem.array<14 x i32>, 1>)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c6 = arith.constant 6 : index
  %c7 = arith.constant 7 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %base = arith.muli %group, %c64 : index
  %flat = arith.addi %base, %item : index
  %x = arith.index_cast %flat : index to i32
  %neg = arith.constant -256 : i32
  %mask = arith.constant 255 : i32
  // x in 0..255; "umax"/"umin" take ~x, "and" takes ~x | -256, "xor" 255 from every item
  %minus1 = arith.constant -1 : i32
  %notx = arith.xori %x, %minus1 : i32
  %andv = arith.ori %notx, %neg : i32
  %p0 = mem.lea %ints, %c0 : !mem.ptr<!mem.array<9 x i32>, 1>
  %p1 = mem.lea %ints, %c1 : !mem.ptr<!mem.array<9 x i32>, 1>
  %p2 = mem.lea %ints, %c2 : !mem.ptr<!mem.array<9 x i32>, 1>
  %p3 = mem.lea %ints, %c3 : !mem.ptr<!mem.array<9 x i32>, 1>
  %p4 = mem.lea %ints, %c4 : !mem.ptr<!mem.array<9 x i32>, 1>
  %p5 = mem.lea %ints, %c5 : !mem.ptr<!mem.array<9 x i32>, 1>
  %p6 = mem.lea %ints, %c6 : !mem.ptr<!mem.array<9 x i32>, 1>
  %p7 = mem.lea %ints, %c7 : !mem.ptr<!mem.array<9 x i32>, 1>
  %p8 = mem.lea %ints, %c8 : !mem.ptr<!mem.array<9 x i32>, 1>
  %a1, %o0 = mem.atomic_rmw "add" %m1, %p0, %x : !mem.ptr<i32, 1>
  %a2, %o1 = mem.atomic_rmw "sub" %a1, %p1, %x : !mem.ptr<i32, 1>
  %a3, %o2 = mem.atomic_rmw "max" %a2, %p2, %x : !mem.ptr<i32, 1>
  %a4, %o3 = mem.atomic_rmw "min" %a3, %p3, %x : !mem.ptr<i32, 1>
  %a5, %o4 = mem.atomic_rmw "umax" %a4, %p4, %notx : !mem.ptr<i32, 1>
  %a6, %o5 = mem.atomic_rmw "umin" %a5, %p5, %notx : !mem.ptr<i32, 1>
  %a7, %o6 = mem.atomic_rmw "and" %a6, %p6, %andv : !mem.ptr<i32, 1>
  %a8, %o7 = mem.atomic_rmw "or" %a7, %p7, %x : !mem.ptr<i32, 1>
  %a9, %o8 = mem.atomic_rmw "xor" %a8, %p8, %mask : !mem.ptr<i32, 1>
  %y = arith.extsi %x : i32 to i64
  %noty = arith.extsi %notx : i32 to i64
  %andy = arith.extsi %andv : i32 to i64
  %masky = arith.extsi %mask : i32 to i64
  %q0 = mem.lea %longs, %c0 : !mem.ptr<!mem.array<9 x i64>, 1>
  %q1 = mem.lea %longs, %c1 : !mem.ptr<!mem.array<9 x i64>, 1>
  %q2 = mem.lea %longs, %c2 : !mem.ptr<!mem.array<9 x i64>, 1>
  %q3 = mem.lea %longs, %c3 : !mem.ptr<!mem.array<9 x i64>, 1>
  %q4 = mem.lea %longs, %c4 : !mem.ptr<!mem.array<9 x i64>, 1>
  %q5 = mem.lea %longs, %c5 : !mem.ptr<!mem.array<9 x i64>, 1>
  %q6 = mem.lea %longs, %c6 : !mem.ptr<!mem.array<9 x i64>, 1>
  %q7 = mem.lea %longs, %c7 : !mem.ptr<!mem.array<9 x i64>, 1>
  %q8 = mem.lea %longs, %c8 : !mem.ptr<!mem.array<9 x i64>, 1>
  %b1, %r0 = mem.atomic_rmw "add" %a9, %q0, %y : !mem.ptr<i64, 1>
  %b2, %r1 = mem.atomic_rmw "sub" %b1, %q1, %y : !mem.ptr<i64, 1>
  %b3, %r2 = mem.atomic_rmw "max" %b2, %q2, %y : !mem.ptr<i64, 1>
  %b4, %r3 = mem.atomic_rmw "min" %b3, %q3, %y : !mem.ptr<i64, 1>
  %b5, %r4 = mem.atomic_rmw "umax" %b4, %q4, %noty : !mem.ptr<i64, 1>
  %b6, %r5 = mem.atomic_rmw "umin" %b5, %q5, %noty : !mem.ptr<i64, 1>
  %b7, %r6 = mem.atomic_rmw "and" %b6, %q6, %andy : !mem.ptr<i64, 1>
  %b8, %r7 = mem.atomic_rmw "or" %b7, %q7, %y : !mem.ptr<i64, 1>
  %b9, %r8 = mem.atomic_rmw "xor" %b8, %q8, %masky : !mem.ptr<i64, 1>
  %f = arith.sitofp %x : i32 to f32
  %seven = arith.constant 7.0 : f32
  %fneg = arith.subf %seven, %f : f32
  %fneg2 = arith.negf %fneg : f32
  %fmin = arith.minimumf %fneg2, %seven : f32
  %fp0 = mem.lea %floats, %c0 : !mem.ptr<!mem.array<3 x f32>, 1>
  %fp1 = mem.lea %floats, %c1 : !mem.ptr<!mem.array<3 x f32>, 1>
  %fp2 = mem.lea %floats, %c2 : !mem.ptr<!mem.array<3 x f32>, 1>
  %g1, %s0 = mem.atomic_rmw "add" %b9, %fp0, %f : !mem.ptr<f32, 1>
  %g2, %s1 = mem.atomic_rmw "max" %g1, %fp1, %f : !mem.ptr<f32, 1>
  %g3, %s2 = mem.atomic_rmw "min" %g2, %fp2, %fmin : !mem.ptr<f32, 1>
  // xchg: only item 7 of group 0 swaps 42 in; it writes the old value (7, put there by @main)
  %m0 = mem.lea %misc, %c0 : !mem.ptr<!mem.array<14 x i32>, 1>
  %m_1 = mem.lea %misc, %c1 : !mem.ptr<!mem.array<14 x i32>, 1>
  %is7 = arith.cmpi eq, %flat, %c7 : index
  %h1 = scf.if %is7 -> (!mem.M<1>) {
    %v42 = arith.constant 42 : i32
    %t1, %old = mem.atomic_rmw "xchg" %g3, %m0, %v42 : !mem.ptr<i32, 1>
    %t2 = mem.store %t1, %m_1, %old : !mem.ptr<i32, 1>
    scf.yield %t2 : !mem.M<1>
  } else {
    scf.yield %g3 : !mem.M<1>
  }
  // a counter incremented with a compare-and-swap loop (the first guess 0; a failed swap
  // returns what is there)
  %z = arith.constant 0 : i32
  %counter = mem.lea %misc, %c2 : !mem.ptr<!mem.array<14 x i32>, 1>
  %one = arith.constant 1 : i32
  %true = arith.constant true
  %w1, %final = scf.while (%t = %h1, %guess = %z) : (!mem.M<1>, i32) -> (!mem.M<1>, i32) {
    %next = arith.addi %guess, %one : i32
    %t2, %was, %ok = mem.cmpxchg %t, %counter, %guess, %next : !mem.ptr<i32, 1>
    %again = arith.xori %ok, %true : i1
    scf.condition(%again) %t2, %was : !mem.M<1>, i32
  } do {
  ^bb0(%t: !mem.M<1>, %was: i32):
    scf.yield %t, %was : !mem.M<1>, i32
  }
  // a shared-memory sum per group, then item 0 stores it
  %e3, %sum = mem.slot %m3 : !mem.ptr<i32, 3>
  %first = arith.cmpi eq, %item, %c0 : index
  %e3b = scf.if %first -> (!mem.M<3>) {
    %t3 = mem.store %e3, %sum, %z : !mem.ptr<i32, 3>
    scf.yield %t3 : !mem.M<3>
  } else {
    scf.yield %e3 : !mem.M<3>
  }
  %s1_, %s3_ = gpu.sync_work_items %w1, %e3b
  %u3, %before = mem.atomic_rmw "add" %s3_, %sum, %x : !mem.ptr<i32, 3>
  %f1, %f3 = gpu.fence "workgroup" %s1_, %u3
  %ff1, %ff3 = gpu.fence "device" %f1, %f3
  %fff1, %fff3 = gpu.fence "system" %ff1, %ff3
  %v1, %v3 = gpu.sync_work_items %fff1, %fff3
  %lane = gpu.lane_id
  %lane32 = arith.index_cast %lane : index to i32
  %x3, %total = mem.load %v3, %sum : !mem.ptr<i32, 3>
  %y1 = scf.if %first -> (!mem.M<1>) {
    %at = arith.addi %group, %c3 : index
    %pt = mem.lea %misc, %at : !mem.ptr<!mem.array<14 x i32>, 1>
    %t1 = mem.store %v1, %pt, %total : !mem.ptr<i32, 1>
    scf.yield %t1 : !mem.M<1>
  } else {
    scf.yield %v1 : !mem.M<1>
  }
  // lanes of items 0 and 63 of groups 0 and 1
  %c10 = arith.constant 10 : index
  %c63 = arith.constant 63 : index
  %last = arith.cmpi eq, %item, %c63 : index
  %edge = arith.ori %first, %last : i1
  %small = arith.cmpi ult, %group, %c2 : index
  %show = arith.andi %edge, %small : i1
  %y2 = scf.if %show -> (!mem.M<1>) {
    %g2x = arith.muli %group, %c2 : index
    %which = arith.select %last, %c1, %c0 : index
    %slot = arith.addi %g2x, %which : index
    %at = arith.addi %slot, %c10 : index
    %pt = mem.lea %misc, %at : !mem.ptr<!mem.array<14 x i32>, 1>
    %t1 = mem.store %y1, %pt, %lane32 : !mem.ptr<i32, 1>
    scf.yield %t1 : !mem.M<1>
  } else {
    scf.yield %y1 : !mem.M<1>
  }
  func.return %y2, %x3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}

func.func @main(%m: !mem.M<0>) -> !mem.M<0> {
  %m0, %m1, %m4 = gpu.init %m
  %t0, %hi = mem.alloc %m0 : !mem.ptr<!mem.array<9 x i32>, 0>
  %t1, %hl = mem.alloc %t0 : !mem.ptr<!mem.array<9 x i64>, 0>
  %t2, %hf = mem.alloc %t1 : !mem.ptr<!mem.array<3 x f32>, 0>
  %t3, %hm = mem.alloc %t2 : !mem.ptr<!mem.array<14 x i32>, 0>
  %i0 = arith.constant 0 : index
  %v0 = arith.constant 0 : i32
  %p0 = mem.lea %hi, %i0 : !mem.ptr<!mem.array<9 x i32>, 0>
  %s0 = mem.store %t3, %p0, %v0 : !mem.ptr<i32, 0>
  %i1 = arith.constant 1 : index
  %v1 = arith.constant 0 : i32
  %p1 = mem.lea %hi, %i1 : !mem.ptr<!mem.array<9 x i32>, 0>
  %s1 = mem.store %s0, %p1, %v1 : !mem.ptr<i32, 0>
  %i2 = arith.constant 2 : index
  %v2 = arith.constant -1000 : i32
  %p2 = mem.lea %hi, %i2 : !mem.ptr<!mem.array<9 x i32>, 0>
  %s2 = mem.store %s1, %p2, %v2 : !mem.ptr<i32, 0>
  %i3 = arith.constant 3 : index
  %v3 = arith.constant 1000 : i32
  %p3 = mem.lea %hi, %i3 : !mem.ptr<!mem.array<9 x i32>, 0>
  %s3 = mem.store %s2, %p3, %v3 : !mem.ptr<i32, 0>
  %i4 = arith.constant 4 : index
  %v4 = arith.constant 0 : i32
  %p4 = mem.lea %hi, %i4 : !mem.ptr<!mem.array<9 x i32>, 0>
  %s4 = mem.store %s3, %p4, %v4 : !mem.ptr<i32, 0>
  %i5 = arith.constant 5 : index
  %v5 = arith.constant -1 : i32
  %p5 = mem.lea %hi, %i5 : !mem.ptr<!mem.array<9 x i32>, 0>
  %s5 = mem.store %s4, %p5, %v5 : !mem.ptr<i32, 0>
  %i6 = arith.constant 6 : index
  %v6 = arith.constant -1 : i32
  %p6 = mem.lea %hi, %i6 : !mem.ptr<!mem.array<9 x i32>, 0>
  %s6 = mem.store %s5, %p6, %v6 : !mem.ptr<i32, 0>
  %i7 = arith.constant 7 : index
  %v7 = arith.constant 0 : i32
  %p7 = mem.lea %hi, %i7 : !mem.ptr<!mem.array<9 x i32>, 0>
  %s7 = mem.store %s6, %p7, %v7 : !mem.ptr<i32, 0>
  %i8 = arith.constant 8 : index
  %v8 = arith.constant 0 : i32
  %p8 = mem.lea %hi, %i8 : !mem.ptr<!mem.array<9 x i32>, 0>
  %s8 = mem.store %s7, %p8, %v8 : !mem.ptr<i32, 0>
  %i9 = arith.constant 0 : index
  %v9 = arith.constant 0 : i64
  %p9 = mem.lea %hl, %i9 : !mem.ptr<!mem.array<9 x i64>, 0>
  %s9 = mem.store %s8, %p9, %v9 : !mem.ptr<i64, 0>
  %i10 = arith.constant 1 : index
  %v10 = arith.constant 0 : i64
  %p10 = mem.lea %hl, %i10 : !mem.ptr<!mem.array<9 x i64>, 0>
  %s10 = mem.store %s9, %p10, %v10 : !mem.ptr<i64, 0>
  %i11 = arith.constant 2 : index
  %v11 = arith.constant -1000 : i64
  %p11 = mem.lea %hl, %i11 : !mem.ptr<!mem.array<9 x i64>, 0>
  %s11 = mem.store %s10, %p11, %v11 : !mem.ptr<i64, 0>
  %i12 = arith.constant 3 : index
  %v12 = arith.constant 1000 : i64
  %p12 = mem.lea %hl, %i12 : !mem.ptr<!mem.array<9 x i64>, 0>
  %s12 = mem.store %s11, %p12, %v12 : !mem.ptr<i64, 0>
  %i13 = arith.constant 4 : index
  %v13 = arith.constant 0 : i64
  %p13 = mem.lea %hl, %i13 : !mem.ptr<!mem.array<9 x i64>, 0>
  %s13 = mem.store %s12, %p13, %v13 : !mem.ptr<i64, 0>
  %i14 = arith.constant 5 : index
  %v14 = arith.constant -1 : i64
  %p14 = mem.lea %hl, %i14 : !mem.ptr<!mem.array<9 x i64>, 0>
  %s14 = mem.store %s13, %p14, %v14 : !mem.ptr<i64, 0>
  %i15 = arith.constant 6 : index
  %v15 = arith.constant -1 : i64
  %p15 = mem.lea %hl, %i15 : !mem.ptr<!mem.array<9 x i64>, 0>
  %s15 = mem.store %s14, %p15, %v15 : !mem.ptr<i64, 0>
  %i16 = arith.constant 7 : index
  %v16 = arith.constant 0 : i64
  %p16 = mem.lea %hl, %i16 : !mem.ptr<!mem.array<9 x i64>, 0>
  %s16 = mem.store %s15, %p16, %v16 : !mem.ptr<i64, 0>
  %i17 = arith.constant 8 : index
  %v17 = arith.constant 0 : i64
  %p17 = mem.lea %hl, %i17 : !mem.ptr<!mem.array<9 x i64>, 0>
  %s17 = mem.store %s16, %p17, %v17 : !mem.ptr<i64, 0>
  %i18 = arith.constant 0 : index
  %v18 = arith.constant 0.0 : f32
  %p18 = mem.lea %hf, %i18 : !mem.ptr<!mem.array<3 x f32>, 0>
  %s18 = mem.store %s17, %p18, %v18 : !mem.ptr<f32, 0>
  %i19 = arith.constant 1 : index
  %v19 = arith.constant -1000.0 : f32
  %p19 = mem.lea %hf, %i19 : !mem.ptr<!mem.array<3 x f32>, 0>
  %s19 = mem.store %s18, %p19, %v19 : !mem.ptr<f32, 0>
  %i20 = arith.constant 2 : index
  %v20 = arith.constant 1000.0 : f32
  %p20 = mem.lea %hf, %i20 : !mem.ptr<!mem.array<3 x f32>, 0>
  %s20 = mem.store %s19, %p20, %v20 : !mem.ptr<f32, 0>
  %i21 = arith.constant 0 : index
  %v21 = arith.constant 7 : i32
  %p21 = mem.lea %hm, %i21 : !mem.ptr<!mem.array<14 x i32>, 0>
  %s21 = mem.store %s20, %p21, %v21 : !mem.ptr<i32, 0>
  %i22 = arith.constant 1 : index
  %v22 = arith.constant 0 : i32
  %p22 = mem.lea %hm, %i22 : !mem.ptr<!mem.array<14 x i32>, 0>
  %s22 = mem.store %s21, %p22, %v22 : !mem.ptr<i32, 0>
  %i23 = arith.constant 2 : index
  %v23 = arith.constant 0 : i32
  %p23 = mem.lea %hm, %i23 : !mem.ptr<!mem.array<14 x i32>, 0>
  %s23 = mem.store %s22, %p23, %v23 : !mem.ptr<i32, 0>
  %i24 = arith.constant 3 : index
  %v24 = arith.constant 0 : i32
  %p24 = mem.lea %hm, %i24 : !mem.ptr<!mem.array<14 x i32>, 0>
  %s24 = mem.store %s23, %p24, %v24 : !mem.ptr<i32, 0>
  %i25 = arith.constant 4 : index
  %v25 = arith.constant 0 : i32
  %p25 = mem.lea %hm, %i25 : !mem.ptr<!mem.array<14 x i32>, 0>
  %s25 = mem.store %s24, %p25, %v25 : !mem.ptr<i32, 0>
  %i26 = arith.constant 5 : index
  %v26 = arith.constant 0 : i32
  %p26 = mem.lea %hm, %i26 : !mem.ptr<!mem.array<14 x i32>, 0>
  %s26 = mem.store %s25, %p26, %v26 : !mem.ptr<i32, 0>
  %i27 = arith.constant 6 : index
  %v27 = arith.constant 0 : i32
  %p27 = mem.lea %hm, %i27 : !mem.ptr<!mem.array<14 x i32>, 0>
  %s27 = mem.store %s26, %p27, %v27 : !mem.ptr<i32, 0>
  %i28 = arith.constant 7 : index
  %v28 = arith.constant 0 : i32
  %p28 = mem.lea %hm, %i28 : !mem.ptr<!mem.array<14 x i32>, 0>
  %s28 = mem.store %s27, %p28, %v28 : !mem.ptr<i32, 0>
  %i29 = arith.constant 8 : index
  %v29 = arith.constant 0 : i32
  %p29 = mem.lea %hm, %i29 : !mem.ptr<!mem.array<14 x i32>, 0>
  %s29 = mem.store %s28, %p29, %v29 : !mem.ptr<i32, 0>
  %i30 = arith.constant 9 : index
  %v30 = arith.constant 0 : i32
  %p30 = mem.lea %hm, %i30 : !mem.ptr<!mem.array<14 x i32>, 0>
  %s30 = mem.store %s29, %p30, %v30 : !mem.ptr<i32, 0>
  %i31 = arith.constant 10 : index
  %v31 = arith.constant 0 : i32
  %p31 = mem.lea %hm, %i31 : !mem.ptr<!mem.array<14 x i32>, 0>
  %s31 = mem.store %s30, %p31, %v31 : !mem.ptr<i32, 0>
  %i32 = arith.constant 11 : index
  %v32 = arith.constant 0 : i32
  %p32 = mem.lea %hm, %i32 : !mem.ptr<!mem.array<14 x i32>, 0>
  %s32 = mem.store %s31, %p32, %v32 : !mem.ptr<i32, 0>
  %i33 = arith.constant 12 : index
  %v33 = arith.constant 0 : i32
  %p33 = mem.lea %hm, %i33 : !mem.ptr<!mem.array<14 x i32>, 0>
  %s33 = mem.store %s32, %p33, %v33 : !mem.ptr<i32, 0>
  %i34 = arith.constant 13 : index
  %v34 = arith.constant 0 : i32
  %p34 = mem.lea %hm, %i34 : !mem.ptr<!mem.array<14 x i32>, 0>
  %s34 = mem.store %s33, %p34, %v34 : !mem.ptr<i32, 0>
  %c0_0, %c0_1, %ints = gpu.alloc_copy.block %s34, %m1, %hi : !mem.ptr<!mem.array<9 x i32>, 0> -> !mem.ptr<!mem.array<9 x i32>, 1>
  %c1_0, %c1_1, %longs = gpu.alloc_copy.block %c0_0, %c0_1, %hl : !mem.ptr<!mem.array<9 x i64>, 0> -> !mem.ptr<!mem.array<9 x i64>, 1>
  %c2_0, %c2_1, %floats = gpu.alloc_copy.block %c1_0, %c1_1, %hf : !mem.ptr<!mem.array<3 x f32>, 0> -> !mem.ptr<!mem.array<3 x f32>, 1>
  %c3_0, %c3_1, %misc = gpu.alloc_copy.block %c2_0, %c2_1, %hm : !mem.ptr<!mem.array<14 x i32>, 0> -> !mem.ptr<!mem.array<14 x i32>, 1>
  %stream = gpu.default_stream
  %g = arith.constant 4 : index
  %n = arith.constant 64 : index
  %l0, %l1, %l4 = gpu.launch @kernel grid(%g, %n) stream(%stream) mems(%c3_0, %c3_1, %m4)
      args(%ints, %longs, %floats, %misc) : (!mem.ptr<!mem.array<9 x i32>, 1>, !mem.ptr<!mem.array<9 x i64>, 1>, !mem.ptr<!mem.array<3 x f32>, 1>, !mem.ptr<!mem.array<14 x i32>, 1>)
  %b0_0, %b0_1 = gpu.copy_to_host.block %l0, %l1, %ints -> %hi : !mem.ptr<!mem.array<9 x i32>, 1> -> !mem.ptr<!mem.array<9 x i32>, 0>
  %b1_0, %b1_1 = gpu.copy_to_host.block %b0_0, %b0_1, %longs -> %hl : !mem.ptr<!mem.array<9 x i64>, 1> -> !mem.ptr<!mem.array<9 x i64>, 0>
  %b2_0, %b2_1 = gpu.copy_to_host.block %b1_0, %b1_1, %floats -> %hf : !mem.ptr<!mem.array<3 x f32>, 1> -> !mem.ptr<!mem.array<3 x f32>, 0>
  %b3_0, %b3_1 = gpu.copy_to_host.block %b2_0, %b2_1, %misc -> %hm : !mem.ptr<!mem.array<14 x i32>, 1> -> !mem.ptr<!mem.array<14 x i32>, 0>
  printf.print_format "i32:"
  %j0 = arith.constant 0 : index
  %q0 = mem.lea %hi, %j0 : !mem.ptr<!mem.array<9 x i32>, 0>
  %r0, %x0 = mem.load %b3_0, %q0 : !mem.ptr<i32, 0>
  printf.print_format " {}", %x0 : i32
  %j1 = arith.constant 1 : index
  %q1 = mem.lea %hi, %j1 : !mem.ptr<!mem.array<9 x i32>, 0>
  %r1, %x1 = mem.load %r0, %q1 : !mem.ptr<i32, 0>
  printf.print_format " {}", %x1 : i32
  %j2 = arith.constant 2 : index
  %q2 = mem.lea %hi, %j2 : !mem.ptr<!mem.array<9 x i32>, 0>
  %r2, %x2 = mem.load %r1, %q2 : !mem.ptr<i32, 0>
  printf.print_format " {}", %x2 : i32
  %j3 = arith.constant 3 : index
  %q3 = mem.lea %hi, %j3 : !mem.ptr<!mem.array<9 x i32>, 0>
  %r3, %x3 = mem.load %r2, %q3 : !mem.ptr<i32, 0>
  printf.print_format " {}", %x3 : i32
  %j4 = arith.constant 4 : index
  %q4 = mem.lea %hi, %j4 : !mem.ptr<!mem.array<9 x i32>, 0>
  %r4, %x4 = mem.load %r3, %q4 : !mem.ptr<i32, 0>
  printf.print_format " {}", %x4 : i32
  %j5 = arith.constant 5 : index
  %q5 = mem.lea %hi, %j5 : !mem.ptr<!mem.array<9 x i32>, 0>
  %r5, %x5 = mem.load %r4, %q5 : !mem.ptr<i32, 0>
  printf.print_format " {}", %x5 : i32
  %j6 = arith.constant 6 : index
  %q6 = mem.lea %hi, %j6 : !mem.ptr<!mem.array<9 x i32>, 0>
  %r6, %x6 = mem.load %r5, %q6 : !mem.ptr<i32, 0>
  printf.print_format " {}", %x6 : i32
  %j7 = arith.constant 7 : index
  %q7 = mem.lea %hi, %j7 : !mem.ptr<!mem.array<9 x i32>, 0>
  %r7, %x7 = mem.load %r6, %q7 : !mem.ptr<i32, 0>
  printf.print_format " {}", %x7 : i32
  %j8 = arith.constant 8 : index
  %q8 = mem.lea %hi, %j8 : !mem.ptr<!mem.array<9 x i32>, 0>
  %r8, %x8 = mem.load %r7, %q8 : !mem.ptr<i32, 0>
  printf.print_format " {}", %x8 : i32
  printf.print_format "\n"
  printf.print_format "i64:"
  %j9 = arith.constant 0 : index
  %q9 = mem.lea %hl, %j9 : !mem.ptr<!mem.array<9 x i64>, 0>
  %r9, %x9 = mem.load %r8, %q9 : !mem.ptr<i64, 0>
  printf.print_format " {}", %x9 : i64
  %j10 = arith.constant 1 : index
  %q10 = mem.lea %hl, %j10 : !mem.ptr<!mem.array<9 x i64>, 0>
  %r10, %x10 = mem.load %r9, %q10 : !mem.ptr<i64, 0>
  printf.print_format " {}", %x10 : i64
  %j11 = arith.constant 2 : index
  %q11 = mem.lea %hl, %j11 : !mem.ptr<!mem.array<9 x i64>, 0>
  %r11, %x11 = mem.load %r10, %q11 : !mem.ptr<i64, 0>
  printf.print_format " {}", %x11 : i64
  %j12 = arith.constant 3 : index
  %q12 = mem.lea %hl, %j12 : !mem.ptr<!mem.array<9 x i64>, 0>
  %r12, %x12 = mem.load %r11, %q12 : !mem.ptr<i64, 0>
  printf.print_format " {}", %x12 : i64
  %j13 = arith.constant 4 : index
  %q13 = mem.lea %hl, %j13 : !mem.ptr<!mem.array<9 x i64>, 0>
  %r13, %x13 = mem.load %r12, %q13 : !mem.ptr<i64, 0>
  printf.print_format " {}", %x13 : i64
  %j14 = arith.constant 5 : index
  %q14 = mem.lea %hl, %j14 : !mem.ptr<!mem.array<9 x i64>, 0>
  %r14, %x14 = mem.load %r13, %q14 : !mem.ptr<i64, 0>
  printf.print_format " {}", %x14 : i64
  %j15 = arith.constant 6 : index
  %q15 = mem.lea %hl, %j15 : !mem.ptr<!mem.array<9 x i64>, 0>
  %r15, %x15 = mem.load %r14, %q15 : !mem.ptr<i64, 0>
  printf.print_format " {}", %x15 : i64
  %j16 = arith.constant 7 : index
  %q16 = mem.lea %hl, %j16 : !mem.ptr<!mem.array<9 x i64>, 0>
  %r16, %x16 = mem.load %r15, %q16 : !mem.ptr<i64, 0>
  printf.print_format " {}", %x16 : i64
  %j17 = arith.constant 8 : index
  %q17 = mem.lea %hl, %j17 : !mem.ptr<!mem.array<9 x i64>, 0>
  %r17, %x17 = mem.load %r16, %q17 : !mem.ptr<i64, 0>
  printf.print_format " {}", %x17 : i64
  printf.print_format "\n"
  printf.print_format "f32:"
  %j18 = arith.constant 0 : index
  %q18 = mem.lea %hf, %j18 : !mem.ptr<!mem.array<3 x f32>, 0>
  %r18, %x18 = mem.load %r17, %q18 : !mem.ptr<f32, 0>
  printf.print_format " {}", %x18 : f32
  %j19 = arith.constant 1 : index
  %q19 = mem.lea %hf, %j19 : !mem.ptr<!mem.array<3 x f32>, 0>
  %r19, %x19 = mem.load %r18, %q19 : !mem.ptr<f32, 0>
  printf.print_format " {}", %x19 : f32
  %j20 = arith.constant 2 : index
  %q20 = mem.lea %hf, %j20 : !mem.ptr<!mem.array<3 x f32>, 0>
  %r20, %x20 = mem.load %r19, %q20 : !mem.ptr<f32, 0>
  printf.print_format " {}", %x20 : f32
  printf.print_format "\n"
  printf.print_format "xchg:"
  %j21 = arith.constant 1 : index
  %q21 = mem.lea %hm, %j21 : !mem.ptr<!mem.array<14 x i32>, 0>
  %r21, %x21 = mem.load %r20, %q21 : !mem.ptr<i32, 0>
  printf.print_format " {}", %x21 : i32
  %j22 = arith.constant 0 : index
  %q22 = mem.lea %hm, %j22 : !mem.ptr<!mem.array<14 x i32>, 0>
  %r22, %x22 = mem.load %r21, %q22 : !mem.ptr<i32, 0>
  printf.print_format " {}", %x22 : i32
  printf.print_format "\n"
  printf.print_format "cas:"
  %j23 = arith.constant 2 : index
  %q23 = mem.lea %hm, %j23 : !mem.ptr<!mem.array<14 x i32>, 0>
  %r23, %x23 = mem.load %r22, %q23 : !mem.ptr<i32, 0>
  printf.print_format " {}", %x23 : i32
  printf.print_format "\n"
  printf.print_format "shared:"
  %j24 = arith.constant 3 : index
  %q24 = mem.lea %hm, %j24 : !mem.ptr<!mem.array<14 x i32>, 0>
  %r24, %x24 = mem.load %r23, %q24 : !mem.ptr<i32, 0>
  printf.print_format " {}", %x24 : i32
  %j25 = arith.constant 4 : index
  %q25 = mem.lea %hm, %j25 : !mem.ptr<!mem.array<14 x i32>, 0>
  %r25, %x25 = mem.load %r24, %q25 : !mem.ptr<i32, 0>
  printf.print_format " {}", %x25 : i32
  %j26 = arith.constant 5 : index
  %q26 = mem.lea %hm, %j26 : !mem.ptr<!mem.array<14 x i32>, 0>
  %r26, %x26 = mem.load %r25, %q26 : !mem.ptr<i32, 0>
  printf.print_format " {}", %x26 : i32
  %j27 = arith.constant 6 : index
  %q27 = mem.lea %hm, %j27 : !mem.ptr<!mem.array<14 x i32>, 0>
  %r27, %x27 = mem.load %r26, %q27 : !mem.ptr<i32, 0>
  printf.print_format " {}", %x27 : i32
  printf.print_format "\n"
  printf.print_format "lanes:"
  %j28 = arith.constant 10 : index
  %q28 = mem.lea %hm, %j28 : !mem.ptr<!mem.array<14 x i32>, 0>
  %r28, %x28 = mem.load %r27, %q28 : !mem.ptr<i32, 0>
  printf.print_format " {}", %x28 : i32
  %j29 = arith.constant 11 : index
  %q29 = mem.lea %hm, %j29 : !mem.ptr<!mem.array<14 x i32>, 0>
  %r29, %x29 = mem.load %r28, %q29 : !mem.ptr<i32, 0>
  printf.print_format " {}", %x29 : i32
  %j30 = arith.constant 12 : index
  %q30 = mem.lea %hm, %j30 : !mem.ptr<!mem.array<14 x i32>, 0>
  %r30, %x30 = mem.load %r29, %q30 : !mem.ptr<i32, 0>
  printf.print_format " {}", %x30 : i32
  %j31 = arith.constant 13 : index
  %q31 = mem.lea %hm, %j31 : !mem.ptr<!mem.array<14 x i32>, 0>
  %r31, %x31 = mem.load %r30, %q31 : !mem.ptr<i32, 0>
  printf.print_format " {}", %x31 : i32
  printf.print_format "\n"
  %f0_1 = gpu.free.block %b3_1, %ints : !mem.ptr<!mem.array<9 x i32>, 1>
  %f0_0 = mem.free %r31, %hi : !mem.ptr<!mem.array<9 x i32>, 0>
  %f1_1 = gpu.free.block %f0_1, %longs : !mem.ptr<!mem.array<9 x i64>, 1>
  %f1_0 = mem.free %f0_0, %hl : !mem.ptr<!mem.array<9 x i64>, 0>
  %f2_1 = gpu.free.block %f1_1, %floats : !mem.ptr<!mem.array<3 x f32>, 1>
  %f2_0 = mem.free %f1_0, %hf : !mem.ptr<!mem.array<3 x f32>, 0>
  %f3_1 = gpu.free.block %f2_1, %misc : !mem.ptr<!mem.array<14 x i32>, 1>
  %f3_0 = mem.free %f2_0, %hm : !mem.ptr<!mem.array<14 x i32>, 0>
  %done = gpu.deinit %f3_0, %f3_1, %l4
  func.return %done : !mem.M<0>
}
