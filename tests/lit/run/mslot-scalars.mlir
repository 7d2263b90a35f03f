// Scalars stored to and loaded from slots (after MimIR's lit/mem/mslot_load_store): on the host,
// a mem.mslot of exactly its pointee's bytes for i8, i16, i32, i64, f32 and f64, one larger
// than its pointee (16 bytes for an i32, 32 for an f64), one of a run-time size (@main's
// argument, 8 bytes for an i64) and a mem.slot of each type; in a kernel, mslots of 4 and 8
// bytes holding an i32 and an f64 in local memory and an i32 in shared memory, the loaded
// values stored to global memory for @main to return. The compiled host once stored the i32
// into the [4 x i8] that the slot's alloca typed its pointer to, which llvmlite refused.
// RUN: gpu-run %s --provider interp 8 | filecheck %s
// RUN: gpu-run %s --provider cpu 8 | filecheck %s
// RUN: gpu-run %s --provider cpu --check 8 | filecheck %s

// mslots of the pointee's size:
// CHECK:      -7
// CHECK-NEXT: -300
// CHECK-NEXT: -123456789
// CHECK-NEXT: 1099511627781
// CHECK-NEXT: 1.5
// CHECK-NEXT: -0.375
// larger than the pointee, and of a run-time size:
// CHECK-NEXT: 2147483647
// CHECK-NEXT: 2.5
// CHECK-NEXT: -9223372036854775808
// slots:
// CHECK-NEXT: 100
// CHECK-NEXT: 30000
// CHECK-NEXT: 7
// CHECK-NEXT: 4294967296
// CHECK-NEXT: 0.25
// CHECK-NEXT: 1e+100
// the kernel's local i32 and f64 and shared i32 (item 0 of group 0):
// CHECK-NEXT: 43
// CHECK-NEXT: 3.25
// CHECK-NEXT: 44
// CHECK-EMPTY:

func.func @kernel(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
                  %group: index, %item: index,
                  %ints: !mem.ptr<!mem.array<2 x i32>, 1>, %float: !mem.ptr<f64, 1>)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %a5, %li = mem.mslot %m5, %c4 : !mem.ptr<i32, 5>
  %b5, %lf = mem.mslot %a5, %c8 : !mem.ptr<f64, 5>
  %a3, %si = mem.mslot %m3, %c4 : !mem.ptr<i32, 3>
  %i = arith.index_cast %item : index to i32
  %forty3 = arith.constant 43 : i32
  %forty4 = arith.constant 44 : i32
  %vi = arith.addi %forty3, %i : i32
  %vs = arith.addi %forty4, %i : i32
  %vf = arith.constant 3.25 : f64
  %c5 = mem.store %b5, %li, %vi : !mem.ptr<i32, 5>
  %d5 = mem.store %c5, %lf, %vf : !mem.ptr<f64, 5>
  %first = arith.cmpi eq, %item, %c0 : index
  %g = arith.cmpi eq, %group, %c0 : index
  %only = arith.andi %first, %g : i1
  %r1, %r3, %r5 = scf.if %only -> (!mem.M<1>, !mem.M<3>, !mem.M<5>) {
    %b3 = mem.store %a3, %si, %vs : !mem.ptr<i32, 3>
    %e5, %xi = mem.load %d5, %li : !mem.ptr<i32, 5>
    %f5, %xf = mem.load %e5, %lf : !mem.ptr<f64, 5>
    %c3, %xs = mem.load %b3, %si : !mem.ptr<i32, 3>
    %p0 = mem.lea %ints, %c0 : !mem.ptr<!mem.array<2 x i32>, 1>
    %p1 = mem.lea %ints, %c1 : !mem.ptr<!mem.array<2 x i32>, 1>
    %b1 = mem.store %m1, %p0, %xi : !mem.ptr<i32, 1>
    %c1_ = mem.store %b1, %p1, %xs : !mem.ptr<i32, 1>
    %d1 = mem.store %c1_, %float, %xf : !mem.ptr<f64, 1>
    scf.yield %d1, %c3, %f5 : !mem.M<1>, !mem.M<3>, !mem.M<5>
  } else {
    scf.yield %m1, %a3, %d5 : !mem.M<1>, !mem.M<3>, !mem.M<5>
  }
  func.return %r1, %r3, %m4, %r5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}

func.func @main(%m: !mem.M<0>, %n: index)
    -> (!mem.M<0>, i8, i16, i32, i64, f32, f64, i32, f64, i64,
        i8, i16, i32, i64, f32, f64, i32, f64, i32) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  // mslots of exactly the pointee's size
  %v8 = arith.constant -7 : i8
  %v16 = arith.constant -300 : i16
  %v32 = arith.constant -123456789 : i32
  %v64 = arith.constant 1099511627781 : i64
  %vf32 = arith.constant 1.5 : f32
  %vf64 = arith.constant -0.375 : f64
  %a0, %p8 = mem.mslot %m, %c1 : !mem.ptr<i8, 0>
  %b0, %p16 = mem.mslot %a0, %c2 : !mem.ptr<i16, 0>
  %c0, %p32 = mem.mslot %b0, %c4 : !mem.ptr<i32, 0>
  %d0, %p64 = mem.mslot %c0, %c8 : !mem.ptr<i64, 0>
  %e0, %pf32 = mem.mslot %d0, %c4 : !mem.ptr<f32, 0>
  %f0, %pf64 = mem.mslot %e0, %c8 : !mem.ptr<f64, 0>
  %g0 = mem.store %f0, %p8, %v8 : !mem.ptr<i8, 0>
  %h0 = mem.store %g0, %p16, %v16 : !mem.ptr<i16, 0>
  %i0 = mem.store %h0, %p32, %v32 : !mem.ptr<i32, 0>
  %j0 = mem.store %i0, %p64, %v64 : !mem.ptr<i64, 0>
  %k0 = mem.store %j0, %pf32, %vf32 : !mem.ptr<f32, 0>
  %l0 = mem.store %k0, %pf64, %vf64 : !mem.ptr<f64, 0>
  %n0, %x8 = mem.load %l0, %p8 : !mem.ptr<i8, 0>
  %o0, %x16 = mem.load %n0, %p16 : !mem.ptr<i16, 0>
  %q0, %x32 = mem.load %o0, %p32 : !mem.ptr<i32, 0>
  %r0, %x64 = mem.load %q0, %p64 : !mem.ptr<i64, 0>
  %s0, %xf32 = mem.load %r0, %pf32 : !mem.ptr<f32, 0>
  %t0, %xf64 = mem.load %s0, %pf64 : !mem.ptr<f64, 0>
  // larger than the pointee, and of a run-time size
  %w32 = arith.constant 2147483647 : i32
  %wf64 = arith.constant 2.5 : f64
  %w64 = arith.constant -9223372036854775808 : i64
  %u0, %big32 = mem.mslot %t0, %c16 : !mem.ptr<i32, 0>
  %v0, %bigf64 = mem.mslot %u0, %c32 : !mem.ptr<f64, 0>
  %w0, %dyn64 = mem.mslot %v0, %n : !mem.ptr<i64, 0>
  %x0 = mem.store %w0, %big32, %w32 : !mem.ptr<i32, 0>
  %y0 = mem.store %x0, %bigf64, %wf64 : !mem.ptr<f64, 0>
  %z0 = mem.store %y0, %dyn64, %w64 : !mem.ptr<i64, 0>
  %aa0, %y32 = mem.load %z0, %big32 : !mem.ptr<i32, 0>
  %ab0, %yf64 = mem.load %aa0, %bigf64 : !mem.ptr<f64, 0>
  %ac0, %y64 = mem.load %ab0, %dyn64 : !mem.ptr<i64, 0>
  // mem.slot of each type
  %s8v = arith.constant 100 : i8
  %s16v = arith.constant 30000 : i16
  %s32v = arith.constant 7 : i32
  %s64v = arith.constant 4294967296 : i64
  %sf32v = arith.constant 0.25 : f32
  %sf64v = arith.constant 1.0e100 : f64
  %ba0, %q8 = mem.slot %ac0 : !mem.ptr<i8, 0>
  %bb0, %q16 = mem.slot %ba0 : !mem.ptr<i16, 0>
  %bc0, %q32 = mem.slot %bb0 : !mem.ptr<i32, 0>
  %bd0, %q64 = mem.slot %bc0 : !mem.ptr<i64, 0>
  %be0, %qf32 = mem.slot %bd0 : !mem.ptr<f32, 0>
  %bf0, %qf64 = mem.slot %be0 : !mem.ptr<f64, 0>
  %bg0 = mem.store %bf0, %q8, %s8v : !mem.ptr<i8, 0>
  %bh0 = mem.store %bg0, %q16, %s16v : !mem.ptr<i16, 0>
  %bi0 = mem.store %bh0, %q32, %s32v : !mem.ptr<i32, 0>
  %bj0 = mem.store %bi0, %q64, %s64v : !mem.ptr<i64, 0>
  %bk0 = mem.store %bj0, %qf32, %sf32v : !mem.ptr<f32, 0>
  %bl0 = mem.store %bk0, %qf64, %sf64v : !mem.ptr<f64, 0>
  %bm0, %z8 = mem.load %bl0, %q8 : !mem.ptr<i8, 0>
  %bn0, %z16 = mem.load %bm0, %q16 : !mem.ptr<i16, 0>
  %bo0, %z32 = mem.load %bn0, %q32 : !mem.ptr<i32, 0>
  %bp0, %z64 = mem.load %bo0, %q64 : !mem.ptr<i64, 0>
  %bq0, %zf32 = mem.load %bp0, %qf32 : !mem.ptr<f32, 0>
  %br0, %zf64 = mem.load %bq0, %qf64 : !mem.ptr<f64, 0>
  // the kernel's slots: two groups of four items
  %hi0, %hints = mem.alloc %br0 : !mem.ptr<!mem.array<2 x i32>, 0>
  %hf0, %hfloat = mem.alloc %hi0 : !mem.ptr<f64, 0>
  %ca0, %ca1, %ca4 = gpu.init %hf0
  %da1, %dints = mem.alloc %ca1 : !mem.ptr<!mem.array<2 x i32>, 1>
  %db1, %dfloat = mem.alloc %da1 : !mem.ptr<f64, 1>
  %stream = gpu.default_stream
  %la0, %la1, %la4 = gpu.launch @kernel grid(%c2, %c4) stream(%stream) mems(%ca0, %db1, %ca4)
      args(%dints, %dfloat) : (!mem.ptr<!mem.array<2 x i32>, 1>, !mem.ptr<f64, 1>)
  %ea0, %ea1 = gpu.copy_to_host.block %la0, %la1, %dints -> %hints : !mem.ptr<!mem.array<2 x i32>, 1> -> !mem.ptr<!mem.array<2 x i32>, 0>
  %eb0, %eb1 = gpu.copy_to_host.block %ea0, %ea1, %dfloat -> %hfloat : !mem.ptr<f64, 1> -> !mem.ptr<f64, 0>
  %ec1 = mem.free %eb1, %dints : !mem.ptr<!mem.array<2 x i32>, 1>
  %ed1 = mem.free %ec1, %dfloat : !mem.ptr<f64, 1>
  %fa0 = gpu.deinit %eb0, %ed1, %la4
  %k0p = arith.constant 0 : index
  %ki = mem.lea %hints, %k0p : !mem.ptr<!mem.array<2 x i32>, 0>
  %ks = mem.lea %hints, %c1 : !mem.ptr<!mem.array<2 x i32>, 0>
  %fb0, %ri = mem.load %fa0, %ki : !mem.ptr<i32, 0>
  %fc0, %rs = mem.load %fb0, %ks : !mem.ptr<i32, 0>
  %fd0, %rf = mem.load %fc0, %hfloat : !mem.ptr<f64, 0>
  %fe0 = mem.free %fd0, %hints : !mem.ptr<!mem.array<2 x i32>, 0>
  %done = mem.free %fe0, %hfloat : !mem.ptr<f64, 0>
  func.return %done, %x8, %x16, %x32, %x64, %xf32, %xf64, %y32, %yf64, %y64,
              %z8, %z16, %z32, %z64, %zf32, %zf64, %ri, %rf, %rs
      : !mem.M<0>, i8, i16, i32, i64, f32, f64, i32, f64, i64,
        i8, i16, i32, i64, f32, f64, i32, f64, i32
}
