// RUN: gpu-opt %s | filecheck %s
// RUN: ROUNDTRIP
// RUN: gpu-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// Every op and type of the gpu dialect in its custom syntax, with every optional part present
// and absent; the generic form is IR.md's (operand and result order, property names).

// A kernel without shared memory or arguments: the barrier, synced_scope and every
// collective, of every kind.
func.func @k(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>, %gid: index, %iid: index) -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
  %s1, %s3 = gpu.sync_work_items %m1, %m3
  %c1, %c3 = gpu.synced_scope %s1, %s3 {
  ^bb0(%x1: !mem.M<1>, %x3: !mem.M<3>):
    %y1, %y3 = gpu.sync_work_items %x1, %x3 {tag}
    gpu.yield %y1, %y3 : !mem.M<1>, !mem.M<3>
  }
  %f = arith.constant 1.000000e+00 : f32
  %i = arith.constant 1 : i32
  %r1a, %r3a, %add = gpu.workgroup_reduce "add" %c1, %c3, %f : f32
  %r1b, %r3b, %mul = gpu.workgroup_reduce "mul" %r1a, %r3a, %i : i32
  %r1c, %r3c, %min = gpu.workgroup_reduce "min" %r1b, %r3b, %iid : index
  %r1d, %r3d, %max = gpu.workgroup_reduce "max" %r1c, %r3c, %f : f32
  %r1e, %r3e, %and = gpu.workgroup_reduce "and" %r1d, %r3d, %i : i32
  %r1f, %r3f, %or = gpu.workgroup_reduce "or" %r1e, %r3e, %i {tag} : i32
  %r1g, %r3g, %xor = gpu.workgroup_reduce "xor" %r1f, %r3f, %gid : index
  %t1a, %t3a, %sadd = gpu.workgroup_scan "add" %r1g, %r3g, %i : i32
  %t1b, %t3b, %smul = gpu.workgroup_scan "mul" %t1a, %t3a, %f : f32
  %t1c, %t3c, %smin = gpu.workgroup_scan "min" %t1b, %t3b, %f : f32
  %t1d, %t3d, %smax = gpu.workgroup_scan "max" %t1c, %t3c, %iid : index
  %t1e, %t3e, %sand = gpu.workgroup_scan "and" %t1d, %t3d, %i : i32
  %t1f, %t3f, %sor = gpu.workgroup_scan "or" %t1e, %t3e, %i : i32
  %t1g, %t3g, %sxor = gpu.workgroup_scan "xor" %t1f, %t3f, %i {tag} : i32
  func.return %t1g, %t3g, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}

// Kernels with a static and a dynamic shared array, and arguments.
func.func private @k_smem(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>, %gid: index, %iid: index, %smem: !mem.ptr<!mem.array<256 x f32>, 3>, %p: !mem.ptr<!mem.array<? x f32>, 1>, %n: i32) -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>)
func.func private @k_dyn(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>, %gid: index, %iid: index, %smem: !mem.ptr<!mem.array<? x !mem.array<4 x i32>>, 3>) -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>)
func.func private @k_args(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>, %gid: index, %iid: index, %c: !mem.ptr<f64, 4>, %x: f64) -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>)

// A kernel in a nested module, as after split-apply.
builtin.module @device {
  func.func private @k(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>, %gid: index, %iid: index) -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>)
}

func.func @host(%m0: !mem.M<0>, %n: index, %x: i32, %h: !mem.ptr<!mem.array<16 x f32>, 0>, %buf: !buffer.buf<4x8xf32>, %dbuf: !buffer.buf<?x8xi32>, %sbuf: !buffer.buf<f64>, %slot: !mem.ptr<!gpu.stream, 0>, %c: !mem.ptr<f64, 4>, %y: f64) -> !mem.M<0> {
  // Sessions.
  %i0, %i1, %i4 = gpu.init %m0
  %d0 = gpu.deinit %i0, %i1, %i4
  %a0, %a1, %a4 = gpu.auto_init %d0 {tag}
  %e0 = gpu.auto_deinit %a0, %a1, %a4 {tag}
  %o0, %o1, %o4 = gpu.init %e0
  // Streams.
  %ds = gpu.default_stream
  %ds2 = gpu.default_stream {tag}
  %si0, %si1 = gpu.stream_init %o0, %o1, %slot
  %sl0, %s = mem.load %si0, %slot : !mem.ptr<!gpu.stream, 0>
  %ss0, %ss1 = gpu.stream_sync %sl0, %si1, %s
  %sd0, %sd1 = gpu.stream_deinit %ss0, %ss1, %s {tag}
  %w0, %w1 = gpu.with_streams %sd0, %sd1 count 2 {
  ^bb0(%x0: !mem.M<0>, %x1: !mem.M<1>, %st0: !gpu.stream, %st1: !gpu.stream):
    %y0, %y1 = gpu.stream_sync %x0, %x1, %st1
    gpu.yield %y0, %y1 : !mem.M<0>, !mem.M<1>
  }
  %v0, %v1 = gpu.with_streams %w0, %w1 count 0 attributes {tag} {
  ^bb0(%u0: !mem.M<0>, %u1: !mem.M<1>):
    gpu.yield %u0, %u1 : !mem.M<0>, !mem.M<1>
  }
  // Device memory: allocation with and without extent, blocking and stream-ordered.
  %b1, %p = gpu.alloc.block %v1 : !mem.ptr<!mem.array<16 x f32>, 1>
  %b2, %q = gpu.alloc.block %b1, %n : !mem.ptr<!mem.array<? x f32>, 1>
  %b3, %r = gpu.alloc.asyn %b2 on %s : !mem.ptr<i32, 1>
  %b4, %t = gpu.alloc.asyn %b3, %n on %s {tag} : !mem.ptr<!mem.array<? x !mem.array<4 x f32>>, 1>
  // Copies.
  %c0, %c1 = gpu.copy_to_device.block %v0, %b4, %h -> %p : !mem.ptr<!mem.array<16 x f32>, 0> -> !mem.ptr<!mem.array<16 x f32>, 1>
  %c2, %c3 = gpu.copy_to_device.asyn %c0, %c1, %h -> %p on %s : !mem.ptr<!mem.array<16 x f32>, 0> -> !mem.ptr<!mem.array<16 x f32>, 1>
  %c4, %c5 = gpu.copy_to_host.block %c2, %c3, %p -> %h : !mem.ptr<!mem.array<16 x f32>, 1> -> !mem.ptr<!mem.array<16 x f32>, 0>
  %c6, %c7 = gpu.copy_to_host.asyn %c4, %c5, %p -> %h on %s {tag} : !mem.ptr<!mem.array<16 x f32>, 1> -> !mem.ptr<!mem.array<16 x f32>, 0>
  %ac0, %ac1, %ap = gpu.alloc_copy.block %c6, %c7, %h : !mem.ptr<!mem.array<16 x f32>, 0> -> !mem.ptr<!mem.array<16 x f32>, 1>
  %ad0, %ad1, %aq = gpu.alloc_copy.asyn %ac0, %ac1, %h on %s : !mem.ptr<!mem.array<16 x f32>, 0> -> !mem.ptr<!mem.array<16 x f32>, 1>
  // Buffers: static, dynamic outer extent and rank 0.
  %bc0, %bc1, %bp = gpu.buf_alloc_copy %ad0, %ad1, %buf : !buffer.buf<4x8xf32> -> !mem.ptr<!mem.array<4 x !mem.array<8 x f32>>, 1>
  %bd0, %bd1, %bq = gpu.buf_alloc_copy %bc0, %bc1, %dbuf : !buffer.buf<?x8xi32> -> !mem.ptr<!mem.array<? x !mem.array<8 x i32>>, 1>
  %be0, %be1, %br = gpu.buf_alloc_copy %bd0, %bd1, %sbuf {tag} : !buffer.buf<f64> -> !mem.ptr<f64, 1>
  %bh0, %bh1 = gpu.buf_copy_to_host %be0, %be1, %bp -> %buf : !mem.ptr<!mem.array<4 x !mem.array<8 x f32>>, 1> -> !buffer.buf<4x8xf32>
  %bi0, %bi1 = gpu.buf_copy_to_host %bh0, %bh1, %bq -> %dbuf : !mem.ptr<!mem.array<? x !mem.array<8 x i32>>, 1> -> !buffer.buf<?x8xi32>
  %bj0, %bj1 = gpu.buf_copy_to_host %bi0, %bi1, %br -> %sbuf {tag} : !mem.ptr<f64, 1> -> !buffer.buf<f64>
  // Launches: neither smem nor args; static smem and args; dynamic smem with its extent;
  // args only; a kernel in a nested module.
  %l0, %l1, %l4 = gpu.launch @k grid(%n, %n) stream(%ds) mems(%bj0, %bj1, %o4)
  %la0, %la1, %la4 = gpu.launch @k_smem grid(%n, %n) stream(%s) smem(!mem.array<256 x f32>) mems(%l0, %l1, %l4) args(%q, %x) : (!mem.ptr<!mem.array<? x f32>, 1>, i32)
  %lb0, %lb1, %lb4 = gpu.launch @k_dyn grid(%n, %n) stream(%s) smem(!mem.array<? x !mem.array<4 x i32>>, %n) mems(%la0, %la1, %la4) {tag}
  %lc0, %lc1, %lc4 = gpu.launch @k_args grid(%n, %n) stream(%s) mems(%lb0, %lb1, %lb4) args(%c, %y) {tag} : (!mem.ptr<f64, 4>, f64)
  %ld0, %ld1, %ld4 = gpu.launch @device::@k grid(%n, %n) stream(%s) mems(%lc0, %lc1, %lc4)
  // An empty argument list may be spelled out; it prints as none.
  %le0, %le1, %le4 = gpu.launch @k grid(%n, %n) stream(%s) mems(%ld0, %ld1, %ld4) args() : ()
  // Frees.
  %f1 = gpu.free.block %le1, %p : !mem.ptr<!mem.array<16 x f32>, 1>
  %f2 = gpu.free.asyn %f1, %q on %s : !mem.ptr<!mem.array<? x f32>, 1>
  %f3 = gpu.free.asyn %f2, %t on %s {tag} : !mem.ptr<!mem.array<? x !mem.array<4 x f32>>, 1>
  %z0 = gpu.deinit %le0, %f3, %le4
  func.return %z0 : !mem.M<0>
}

// CHECK:      builtin.module {
// CHECK-NEXT:   func.func @k(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>, %gid: index, %iid: index) -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
// CHECK-NEXT:     %s1, %s3 = gpu.sync_work_items %m1, %m3
// CHECK-NEXT:     %c1, %c3 = gpu.synced_scope %s1, %s3 {
// CHECK-NEXT:     ^bb0(%x1: !mem.M<1>, %x3: !mem.M<3>):
// CHECK-NEXT:       %y1, %y3 = gpu.sync_work_items %x1, %x3 {tag}
// CHECK-NEXT:       gpu.yield %y1, %y3 : !mem.M<1>, !mem.M<3>
// CHECK-NEXT:     }
// CHECK-NEXT:     %f = arith.constant 1.000000e+00 : f32
// CHECK-NEXT:     %i = arith.constant 1 : i32
// CHECK-NEXT:     %r1a, %r3a, %add = gpu.workgroup_reduce "add" %c1, %c3, %f : f32
// CHECK-NEXT:     %r1b, %r3b, %mul = gpu.workgroup_reduce "mul" %r1a, %r3a, %i : i32
// CHECK-NEXT:     %r1c, %r3c, %min = gpu.workgroup_reduce "min" %r1b, %r3b, %iid : index
// CHECK-NEXT:     %r1d, %r3d, %max = gpu.workgroup_reduce "max" %r1c, %r3c, %f : f32
// CHECK-NEXT:     %r1e, %r3e, %and = gpu.workgroup_reduce "and" %r1d, %r3d, %i : i32
// CHECK-NEXT:     %r1f, %r3f, %or = gpu.workgroup_reduce "or" %r1e, %r3e, %i {tag} : i32
// CHECK-NEXT:     %r1g, %r3g, %xor = gpu.workgroup_reduce "xor" %r1f, %r3f, %gid : index
// CHECK-NEXT:     %t1a, %t3a, %sadd = gpu.workgroup_scan "add" %r1g, %r3g, %i : i32
// CHECK-NEXT:     %t1b, %t3b, %smul = gpu.workgroup_scan "mul" %t1a, %t3a, %f : f32
// CHECK-NEXT:     %t1c, %t3c, %smin = gpu.workgroup_scan "min" %t1b, %t3b, %f : f32
// CHECK-NEXT:     %t1d, %t3d, %smax = gpu.workgroup_scan "max" %t1c, %t3c, %iid : index
// CHECK-NEXT:     %t1e, %t3e, %sand = gpu.workgroup_scan "and" %t1d, %t3d, %i : i32
// CHECK-NEXT:     %t1f, %t3f, %sor = gpu.workgroup_scan "or" %t1e, %t3e, %i : i32
// CHECK-NEXT:     %t1g, %t3g, %sxor = gpu.workgroup_scan "xor" %t1f, %t3f, %i {tag} : i32
// CHECK-NEXT:     func.return %t1g, %t3g, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func private @k_smem(!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>, index, index, !mem.ptr<!mem.array<256 x f32>, 3>, !mem.ptr<!mem.array<? x f32>, 1>, i32) -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>)
// CHECK-NEXT:   func.func private @k_dyn(!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>, index, index, !mem.ptr<!mem.array<? x !mem.array<4 x i32>>, 3>) -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>)
// CHECK-NEXT:   func.func private @k_args(!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>, index, index, !mem.ptr<f64, 4>, f64) -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>)
// CHECK-NEXT:   builtin.module @device {
// CHECK-NEXT:     func.func private @k(!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>, index, index) -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>)
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func @host(%m0: !mem.M<0>, %n: index, %x: i32, %h: !mem.ptr<!mem.array<16 x f32>, 0>, %buf: !buffer.buf<4x8xf32>, %dbuf: !buffer.buf<?x8xi32>, %sbuf: !buffer.buf<f64>, %slot: !mem.ptr<!gpu.stream, 0>, %c: !mem.ptr<f64, 4>, %y: f64) -> !mem.M<0> {
// CHECK-NEXT:     %i0, %i1, %i4 = gpu.init %m0
// CHECK-NEXT:     %d0 = gpu.deinit %i0, %i1, %i4
// CHECK-NEXT:     %a0, %a1, %a4 = gpu.auto_init %d0 {tag}
// CHECK-NEXT:     %e0 = gpu.auto_deinit %a0, %a1, %a4 {tag}
// CHECK-NEXT:     %o0, %o1, %o4 = gpu.init %e0
// CHECK-NEXT:     %ds = gpu.default_stream
// CHECK-NEXT:     %ds2 = gpu.default_stream {tag}
// CHECK-NEXT:     %si0, %si1 = gpu.stream_init %o0, %o1, %slot
// CHECK-NEXT:     %sl0, %s = mem.load %si0, %slot : !mem.ptr<!gpu.stream, 0>
// CHECK-NEXT:     %ss0, %ss1 = gpu.stream_sync %sl0, %si1, %s
// CHECK-NEXT:     %sd0, %sd1 = gpu.stream_deinit %ss0, %ss1, %s {tag}
// CHECK-NEXT:     %w0, %w1 = gpu.with_streams %sd0, %sd1 count 2 {
// CHECK-NEXT:     ^bb0(%x0: !mem.M<0>, %x1: !mem.M<1>, %st0: !gpu.stream, %st1: !gpu.stream):
// CHECK-NEXT:       %y0, %y1 = gpu.stream_sync %x0, %x1, %st1
// CHECK-NEXT:       gpu.yield %y0, %y1 : !mem.M<0>, !mem.M<1>
// CHECK-NEXT:     }
// CHECK-NEXT:     %v0, %v1 = gpu.with_streams %w0, %w1 count 0 attributes {tag} {
// CHECK-NEXT:     ^bb0(%u0: !mem.M<0>, %u1: !mem.M<1>):
// CHECK-NEXT:       gpu.yield %u0, %u1 : !mem.M<0>, !mem.M<1>
// CHECK-NEXT:     }
// CHECK-NEXT:     %b1, %p = gpu.alloc.block %v1 : !mem.ptr<!mem.array<16 x f32>, 1>
// CHECK-NEXT:     %b2, %q = gpu.alloc.block %b1, %n : !mem.ptr<!mem.array<? x f32>, 1>
// CHECK-NEXT:     %b3, %r = gpu.alloc.asyn %b2 on %s : !mem.ptr<i32, 1>
// CHECK-NEXT:     %b4, %t = gpu.alloc.asyn %b3, %n on %s {tag} : !mem.ptr<!mem.array<? x !mem.array<4 x f32>>, 1>
// CHECK-NEXT:     %c0, %c1 = gpu.copy_to_device.block %v0, %b4, %h -> %p : !mem.ptr<!mem.array<16 x f32>, 0> -> !mem.ptr<!mem.array<16 x f32>, 1>
// CHECK-NEXT:     %c2, %c3 = gpu.copy_to_device.asyn %c0, %c1, %h -> %p on %s : !mem.ptr<!mem.array<16 x f32>, 0> -> !mem.ptr<!mem.array<16 x f32>, 1>
// CHECK-NEXT:     %c4, %c5 = gpu.copy_to_host.block %c2, %c3, %p -> %h : !mem.ptr<!mem.array<16 x f32>, 1> -> !mem.ptr<!mem.array<16 x f32>, 0>
// CHECK-NEXT:     %c6, %c7 = gpu.copy_to_host.asyn %c4, %c5, %p -> %h on %s {tag} : !mem.ptr<!mem.array<16 x f32>, 1> -> !mem.ptr<!mem.array<16 x f32>, 0>
// CHECK-NEXT:     %ac0, %ac1, %ap = gpu.alloc_copy.block %c6, %c7, %h : !mem.ptr<!mem.array<16 x f32>, 0> -> !mem.ptr<!mem.array<16 x f32>, 1>
// CHECK-NEXT:     %ad0, %ad1, %aq = gpu.alloc_copy.asyn %ac0, %ac1, %h on %s : !mem.ptr<!mem.array<16 x f32>, 0> -> !mem.ptr<!mem.array<16 x f32>, 1>
// CHECK-NEXT:     %bc0, %bc1, %bp = gpu.buf_alloc_copy %ad0, %ad1, %buf : !buffer.buf<4x8xf32> -> !mem.ptr<!mem.array<4 x !mem.array<8 x f32>>, 1>
// CHECK-NEXT:     %bd0, %bd1, %bq = gpu.buf_alloc_copy %bc0, %bc1, %dbuf : !buffer.buf<?x8xi32> -> !mem.ptr<!mem.array<? x !mem.array<8 x i32>>, 1>
// CHECK-NEXT:     %be0, %be1, %br = gpu.buf_alloc_copy %bd0, %bd1, %sbuf {tag} : !buffer.buf<f64> -> !mem.ptr<f64, 1>
// CHECK-NEXT:     %bh0, %bh1 = gpu.buf_copy_to_host %be0, %be1, %bp -> %buf : !mem.ptr<!mem.array<4 x !mem.array<8 x f32>>, 1> -> !buffer.buf<4x8xf32>
// CHECK-NEXT:     %bi0, %bi1 = gpu.buf_copy_to_host %bh0, %bh1, %bq -> %dbuf : !mem.ptr<!mem.array<? x !mem.array<8 x i32>>, 1> -> !buffer.buf<?x8xi32>
// CHECK-NEXT:     %bj0, %bj1 = gpu.buf_copy_to_host %bi0, %bi1, %br -> %sbuf {tag} : !mem.ptr<f64, 1> -> !buffer.buf<f64>
// CHECK-NEXT:     %l0, %l1, %l4 = gpu.launch @k grid(%n, %n) stream(%ds) mems(%bj0, %bj1, %o4)
// CHECK-NEXT:     %la0, %la1, %la4 = gpu.launch @k_smem grid(%n, %n) stream(%s) smem(!mem.array<256 x f32>) mems(%l0, %l1, %l4) args(%q, %x) : (!mem.ptr<!mem.array<? x f32>, 1>, i32)
// CHECK-NEXT:     %lb0, %lb1, %lb4 = gpu.launch @k_dyn grid(%n, %n) stream(%s) smem(!mem.array<? x !mem.array<4 x i32>>, %n) mems(%la0, %la1, %la4) {tag}
// CHECK-NEXT:     %lc0, %lc1, %lc4 = gpu.launch @k_args grid(%n, %n) stream(%s) mems(%lb0, %lb1, %lb4) args(%c, %y) {tag} : (!mem.ptr<f64, 4>, f64)
// CHECK-NEXT:     %ld0, %ld1, %ld4 = gpu.launch @device::@k grid(%n, %n) stream(%s) mems(%lc0, %lc1, %lc4)
// CHECK-NEXT:     %le0, %le1, %le4 = gpu.launch @k grid(%n, %n) stream(%s) mems(%ld0, %ld1, %ld4)
// CHECK-NEXT:     %f1 = gpu.free.block %le1, %p : !mem.ptr<!mem.array<16 x f32>, 1>
// CHECK-NEXT:     %f2 = gpu.free.asyn %f1, %q on %s : !mem.ptr<!mem.array<? x f32>, 1>
// CHECK-NEXT:     %f3 = gpu.free.asyn %f2, %t on %s {tag} : !mem.ptr<!mem.array<? x !mem.array<4 x f32>>, 1>
// CHECK-NEXT:     %z0 = gpu.deinit %le0, %f3, %le4
// CHECK-NEXT:     func.return %z0 : !mem.M<0>
// CHECK-NEXT:   }
// CHECK-NEXT: }

// GENERIC:      "builtin.module"() ({
// GENERIC-NEXT:   "func.func"() <{sym_name = "k", function_type = (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>, index, index) -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>)}> ({
// GENERIC-NEXT:   ^bb0(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>, %gid: index, %iid: index):
// GENERIC-NEXT:     %s1, %s3 = "gpu.sync_work_items"(%m1, %m3) : (!mem.M<1>, !mem.M<3>) -> (!mem.M<1>, !mem.M<3>)
// GENERIC-NEXT:     %c1, %c3 = "gpu.synced_scope"(%s1, %s3) ({
// GENERIC-NEXT:     ^bb0(%x1: !mem.M<1>, %x3: !mem.M<3>):
// GENERIC-NEXT:       %y1, %y3 = "gpu.sync_work_items"(%x1, %x3) {tag} : (!mem.M<1>, !mem.M<3>) -> (!mem.M<1>, !mem.M<3>)
// GENERIC-NEXT:       "gpu.yield"(%y1, %y3) : (!mem.M<1>, !mem.M<3>) -> ()
// GENERIC-NEXT:     }) : (!mem.M<1>, !mem.M<3>) -> (!mem.M<1>, !mem.M<3>)
// GENERIC-NEXT:     %f = "arith.constant"() <{value = 1.000000e+00 : f32}> : () -> f32
// GENERIC-NEXT:     %i = "arith.constant"() <{value = 1 : i32}> : () -> i32
// GENERIC-NEXT:     %r1a, %r3a, %add = "gpu.workgroup_reduce"(%c1, %c3, %f) <{kind = "add"}> : (!mem.M<1>, !mem.M<3>, f32) -> (!mem.M<1>, !mem.M<3>, f32)
// GENERIC-NEXT:     %r1b, %r3b, %mul = "gpu.workgroup_reduce"(%r1a, %r3a, %i) <{kind = "mul"}> : (!mem.M<1>, !mem.M<3>, i32) -> (!mem.M<1>, !mem.M<3>, i32)
// GENERIC-NEXT:     %r1c, %r3c, %min = "gpu.workgroup_reduce"(%r1b, %r3b, %iid) <{kind = "min"}> : (!mem.M<1>, !mem.M<3>, index) -> (!mem.M<1>, !mem.M<3>, index)
// GENERIC-NEXT:     %r1d, %r3d, %max = "gpu.workgroup_reduce"(%r1c, %r3c, %f) <{kind = "max"}> : (!mem.M<1>, !mem.M<3>, f32) -> (!mem.M<1>, !mem.M<3>, f32)
// GENERIC-NEXT:     %r1e, %r3e, %and = "gpu.workgroup_reduce"(%r1d, %r3d, %i) <{kind = "and"}> : (!mem.M<1>, !mem.M<3>, i32) -> (!mem.M<1>, !mem.M<3>, i32)
// GENERIC-NEXT:     %r1f, %r3f, %or = "gpu.workgroup_reduce"(%r1e, %r3e, %i) <{kind = "or"}> {tag} : (!mem.M<1>, !mem.M<3>, i32) -> (!mem.M<1>, !mem.M<3>, i32)
// GENERIC-NEXT:     %r1g, %r3g, %xor = "gpu.workgroup_reduce"(%r1f, %r3f, %gid) <{kind = "xor"}> : (!mem.M<1>, !mem.M<3>, index) -> (!mem.M<1>, !mem.M<3>, index)
// GENERIC-NEXT:     %t1a, %t3a, %sadd = "gpu.workgroup_scan"(%r1g, %r3g, %i) <{kind = "add"}> : (!mem.M<1>, !mem.M<3>, i32) -> (!mem.M<1>, !mem.M<3>, i32)
// GENERIC-NEXT:     %t1b, %t3b, %smul = "gpu.workgroup_scan"(%t1a, %t3a, %f) <{kind = "mul"}> : (!mem.M<1>, !mem.M<3>, f32) -> (!mem.M<1>, !mem.M<3>, f32)
// GENERIC-NEXT:     %t1c, %t3c, %smin = "gpu.workgroup_scan"(%t1b, %t3b, %f) <{kind = "min"}> : (!mem.M<1>, !mem.M<3>, f32) -> (!mem.M<1>, !mem.M<3>, f32)
// GENERIC-NEXT:     %t1d, %t3d, %smax = "gpu.workgroup_scan"(%t1c, %t3c, %iid) <{kind = "max"}> : (!mem.M<1>, !mem.M<3>, index) -> (!mem.M<1>, !mem.M<3>, index)
// GENERIC-NEXT:     %t1e, %t3e, %sand = "gpu.workgroup_scan"(%t1d, %t3d, %i) <{kind = "and"}> : (!mem.M<1>, !mem.M<3>, i32) -> (!mem.M<1>, !mem.M<3>, i32)
// GENERIC-NEXT:     %t1f, %t3f, %sor = "gpu.workgroup_scan"(%t1e, %t3e, %i) <{kind = "or"}> : (!mem.M<1>, !mem.M<3>, i32) -> (!mem.M<1>, !mem.M<3>, i32)
// GENERIC-NEXT:     %t1g, %t3g, %sxor = "gpu.workgroup_scan"(%t1f, %t3f, %i) <{kind = "xor"}> {tag} : (!mem.M<1>, !mem.M<3>, i32) -> (!mem.M<1>, !mem.M<3>, i32)
// GENERIC-NEXT:     "func.return"(%t1g, %t3g, %m4, %m5) : (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) -> ()
// GENERIC-NEXT:   }) : () -> ()
// GENERIC-NEXT:   "func.func"() <{sym_name = "k_smem", function_type = (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>, index, index, !mem.ptr<!mem.array<256 x f32>, 3>, !mem.ptr<!mem.array<? x f32>, 1>, i32) -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>), sym_visibility = "private"}> ({
// GENERIC-NEXT:   }) : () -> ()
// GENERIC-NEXT:   "func.func"() <{sym_name = "k_dyn", function_type = (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>, index, index, !mem.ptr<!mem.array<? x !mem.array<4 x i32>>, 3>) -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>), sym_visibility = "private"}> ({
// GENERIC-NEXT:   }) : () -> ()
// GENERIC-NEXT:   "func.func"() <{sym_name = "k_args", function_type = (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>, index, index, !mem.ptr<f64, 4>, f64) -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>), sym_visibility = "private"}> ({
// GENERIC-NEXT:   }) : () -> ()
// GENERIC-NEXT:   "builtin.module"() <{sym_name = "device"}> ({
// GENERIC-NEXT:     "func.func"() <{sym_name = "k", function_type = (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>, index, index) -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>), sym_visibility = "private"}> ({
// GENERIC-NEXT:     }) : () -> ()
// GENERIC-NEXT:   }) : () -> ()
// GENERIC-NEXT:   "func.func"() <{sym_name = "host", function_type = (!mem.M<0>, index, i32, !mem.ptr<!mem.array<16 x f32>, 0>, !buffer.buf<4x8xf32>, !buffer.buf<?x8xi32>, !buffer.buf<f64>, !mem.ptr<!gpu.stream, 0>, !mem.ptr<f64, 4>, f64) -> !mem.M<0>}> ({
// GENERIC-NEXT:   ^bb0(%m0: !mem.M<0>, %n: index, %x: i32, %h: !mem.ptr<!mem.array<16 x f32>, 0>, %buf: !buffer.buf<4x8xf32>, %dbuf: !buffer.buf<?x8xi32>, %sbuf: !buffer.buf<f64>, %slot: !mem.ptr<!gpu.stream, 0>, %c: !mem.ptr<f64, 4>, %y: f64):
// GENERIC-NEXT:     %i0, %i1, %i4 = "gpu.init"(%m0) : (!mem.M<0>) -> (!mem.M<0>, !mem.M<1>, !mem.M<4>)
// GENERIC-NEXT:     %d0 = "gpu.deinit"(%i0, %i1, %i4) : (!mem.M<0>, !mem.M<1>, !mem.M<4>) -> !mem.M<0>
// GENERIC-NEXT:     %a0, %a1, %a4 = "gpu.auto_init"(%d0) {tag} : (!mem.M<0>) -> (!mem.M<0>, !mem.M<1>, !mem.M<4>)
// GENERIC-NEXT:     %e0 = "gpu.auto_deinit"(%a0, %a1, %a4) {tag} : (!mem.M<0>, !mem.M<1>, !mem.M<4>) -> !mem.M<0>
// GENERIC-NEXT:     %o0, %o1, %o4 = "gpu.init"(%e0) : (!mem.M<0>) -> (!mem.M<0>, !mem.M<1>, !mem.M<4>)
// GENERIC-NEXT:     %ds = "gpu.default_stream"() : () -> !gpu.stream
// GENERIC-NEXT:     %ds2 = "gpu.default_stream"() {tag} : () -> !gpu.stream
// GENERIC-NEXT:     %si0, %si1 = "gpu.stream_init"(%o0, %o1, %slot) : (!mem.M<0>, !mem.M<1>, !mem.ptr<!gpu.stream, 0>) -> (!mem.M<0>, !mem.M<1>)
// GENERIC-NEXT:     %sl0, %s = "mem.load"(%si0, %slot) : (!mem.M<0>, !mem.ptr<!gpu.stream, 0>) -> (!mem.M<0>, !gpu.stream)
// GENERIC-NEXT:     %ss0, %ss1 = "gpu.stream_sync"(%sl0, %si1, %s) : (!mem.M<0>, !mem.M<1>, !gpu.stream) -> (!mem.M<0>, !mem.M<1>)
// GENERIC-NEXT:     %sd0, %sd1 = "gpu.stream_deinit"(%ss0, %ss1, %s) {tag} : (!mem.M<0>, !mem.M<1>, !gpu.stream) -> (!mem.M<0>, !mem.M<1>)
// GENERIC-NEXT:     %w0, %w1 = "gpu.with_streams"(%sd0, %sd1) <{count = 2 : i64}> ({
// GENERIC-NEXT:     ^bb0(%x0: !mem.M<0>, %x1: !mem.M<1>, %st0: !gpu.stream, %st1: !gpu.stream):
// GENERIC-NEXT:       %y0, %y1 = "gpu.stream_sync"(%x0, %x1, %st1) : (!mem.M<0>, !mem.M<1>, !gpu.stream) -> (!mem.M<0>, !mem.M<1>)
// GENERIC-NEXT:       "gpu.yield"(%y0, %y1) : (!mem.M<0>, !mem.M<1>) -> ()
// GENERIC-NEXT:     }) : (!mem.M<0>, !mem.M<1>) -> (!mem.M<0>, !mem.M<1>)
// GENERIC-NEXT:     %v0, %v1 = "gpu.with_streams"(%w0, %w1) <{count = 0 : i64}> ({
// GENERIC-NEXT:     ^bb0(%u0: !mem.M<0>, %u1: !mem.M<1>):
// GENERIC-NEXT:       "gpu.yield"(%u0, %u1) : (!mem.M<0>, !mem.M<1>) -> ()
// GENERIC-NEXT:     }) {tag} : (!mem.M<0>, !mem.M<1>) -> (!mem.M<0>, !mem.M<1>)
// GENERIC-NEXT:     %b1, %p = "gpu.alloc.block"(%v1) : (!mem.M<1>) -> (!mem.M<1>, !mem.ptr<!mem.array<16 x f32>, 1>)
// GENERIC-NEXT:     %b2, %q = "gpu.alloc.block"(%b1, %n) : (!mem.M<1>, index) -> (!mem.M<1>, !mem.ptr<!mem.array<? x f32>, 1>)
// GENERIC-NEXT:     %b3, %r = "gpu.alloc.asyn"(%b2, %s) : (!mem.M<1>, !gpu.stream) -> (!mem.M<1>, !mem.ptr<i32, 1>)
// GENERIC-NEXT:     %b4, %t = "gpu.alloc.asyn"(%b3, %s, %n) {tag} : (!mem.M<1>, !gpu.stream, index) -> (!mem.M<1>, !mem.ptr<!mem.array<? x !mem.array<4 x f32>>, 1>)
// GENERIC-NEXT:     %c0, %c1 = "gpu.copy_to_device.block"(%v0, %b4, %h, %p) : (!mem.M<0>, !mem.M<1>, !mem.ptr<!mem.array<16 x f32>, 0>, !mem.ptr<!mem.array<16 x f32>, 1>) -> (!mem.M<0>, !mem.M<1>)
// GENERIC-NEXT:     %c2, %c3 = "gpu.copy_to_device.asyn"(%c0, %c1, %h, %p, %s) : (!mem.M<0>, !mem.M<1>, !mem.ptr<!mem.array<16 x f32>, 0>, !mem.ptr<!mem.array<16 x f32>, 1>, !gpu.stream) -> (!mem.M<0>, !mem.M<1>)
// GENERIC-NEXT:     %c4, %c5 = "gpu.copy_to_host.block"(%c2, %c3, %p, %h) : (!mem.M<0>, !mem.M<1>, !mem.ptr<!mem.array<16 x f32>, 1>, !mem.ptr<!mem.array<16 x f32>, 0>) -> (!mem.M<0>, !mem.M<1>)
// GENERIC-NEXT:     %c6, %c7 = "gpu.copy_to_host.asyn"(%c4, %c5, %p, %h, %s) {tag} : (!mem.M<0>, !mem.M<1>, !mem.ptr<!mem.array<16 x f32>, 1>, !mem.ptr<!mem.array<16 x f32>, 0>, !gpu.stream) -> (!mem.M<0>, !mem.M<1>)
// GENERIC-NEXT:     %ac0, %ac1, %ap = "gpu.alloc_copy.block"(%c6, %c7, %h) : (!mem.M<0>, !mem.M<1>, !mem.ptr<!mem.array<16 x f32>, 0>) -> (!mem.M<0>, !mem.M<1>, !mem.ptr<!mem.array<16 x f32>, 1>)
// GENERIC-NEXT:     %ad0, %ad1, %aq = "gpu.alloc_copy.asyn"(%ac0, %ac1, %h, %s) : (!mem.M<0>, !mem.M<1>, !mem.ptr<!mem.array<16 x f32>, 0>, !gpu.stream) -> (!mem.M<0>, !mem.M<1>, !mem.ptr<!mem.array<16 x f32>, 1>)
// GENERIC-NEXT:     %bc0, %bc1, %bp = "gpu.buf_alloc_copy"(%ad0, %ad1, %buf) : (!mem.M<0>, !mem.M<1>, !buffer.buf<4x8xf32>) -> (!mem.M<0>, !mem.M<1>, !mem.ptr<!mem.array<4 x !mem.array<8 x f32>>, 1>)
// GENERIC-NEXT:     %bd0, %bd1, %bq = "gpu.buf_alloc_copy"(%bc0, %bc1, %dbuf) : (!mem.M<0>, !mem.M<1>, !buffer.buf<?x8xi32>) -> (!mem.M<0>, !mem.M<1>, !mem.ptr<!mem.array<? x !mem.array<8 x i32>>, 1>)
// GENERIC-NEXT:     %be0, %be1, %br = "gpu.buf_alloc_copy"(%bd0, %bd1, %sbuf) {tag} : (!mem.M<0>, !mem.M<1>, !buffer.buf<f64>) -> (!mem.M<0>, !mem.M<1>, !mem.ptr<f64, 1>)
// GENERIC-NEXT:     %bh0, %bh1 = "gpu.buf_copy_to_host"(%be0, %be1, %bp, %buf) : (!mem.M<0>, !mem.M<1>, !mem.ptr<!mem.array<4 x !mem.array<8 x f32>>, 1>, !buffer.buf<4x8xf32>) -> (!mem.M<0>, !mem.M<1>)
// GENERIC-NEXT:     %bi0, %bi1 = "gpu.buf_copy_to_host"(%bh0, %bh1, %bq, %dbuf) : (!mem.M<0>, !mem.M<1>, !mem.ptr<!mem.array<? x !mem.array<8 x i32>>, 1>, !buffer.buf<?x8xi32>) -> (!mem.M<0>, !mem.M<1>)
// GENERIC-NEXT:     %bj0, %bj1 = "gpu.buf_copy_to_host"(%bi0, %bi1, %br, %sbuf) {tag} : (!mem.M<0>, !mem.M<1>, !mem.ptr<f64, 1>, !buffer.buf<f64>) -> (!mem.M<0>, !mem.M<1>)
// GENERIC-NEXT:     %l0, %l1, %l4 = "gpu.launch"(%n, %n, %ds, %bj0, %bj1, %o4) <{kernel = @k, operandSegmentSizes = array<i32: 1, 1, 1, 0, 1, 1, 1, 0>}> : (index, index, !gpu.stream, !mem.M<0>, !mem.M<1>, !mem.M<4>) -> (!mem.M<0>, !mem.M<1>, !mem.M<4>)
// GENERIC-NEXT:     %la0, %la1, %la4 = "gpu.launch"(%n, %n, %s, %l0, %l1, %l4, %q, %x) <{kernel = @k_smem, smem = !mem.array<256 x f32>, operandSegmentSizes = array<i32: 1, 1, 1, 0, 1, 1, 1, 2>}> : (index, index, !gpu.stream, !mem.M<0>, !mem.M<1>, !mem.M<4>, !mem.ptr<!mem.array<? x f32>, 1>, i32) -> (!mem.M<0>, !mem.M<1>, !mem.M<4>)
// GENERIC-NEXT:     %lb0, %lb1, %lb4 = "gpu.launch"(%n, %n, %s, %n, %la0, %la1, %la4) <{kernel = @k_dyn, smem = !mem.array<? x !mem.array<4 x i32>>, operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1, 0>}> {tag} : (index, index, !gpu.stream, index, !mem.M<0>, !mem.M<1>, !mem.M<4>) -> (!mem.M<0>, !mem.M<1>, !mem.M<4>)
// GENERIC-NEXT:     %lc0, %lc1, %lc4 = "gpu.launch"(%n, %n, %s, %lb0, %lb1, %lb4, %c, %y) <{kernel = @k_args, operandSegmentSizes = array<i32: 1, 1, 1, 0, 1, 1, 1, 2>}> {tag} : (index, index, !gpu.stream, !mem.M<0>, !mem.M<1>, !mem.M<4>, !mem.ptr<f64, 4>, f64) -> (!mem.M<0>, !mem.M<1>, !mem.M<4>)
// GENERIC-NEXT:     %ld0, %ld1, %ld4 = "gpu.launch"(%n, %n, %s, %lc0, %lc1, %lc4) <{kernel = @device::@k, operandSegmentSizes = array<i32: 1, 1, 1, 0, 1, 1, 1, 0>}> : (index, index, !gpu.stream, !mem.M<0>, !mem.M<1>, !mem.M<4>) -> (!mem.M<0>, !mem.M<1>, !mem.M<4>)
// GENERIC-NEXT:     %le0, %le1, %le4 = "gpu.launch"(%n, %n, %s, %ld0, %ld1, %ld4) <{kernel = @k, operandSegmentSizes = array<i32: 1, 1, 1, 0, 1, 1, 1, 0>}> : (index, index, !gpu.stream, !mem.M<0>, !mem.M<1>, !mem.M<4>) -> (!mem.M<0>, !mem.M<1>, !mem.M<4>)
// GENERIC-NEXT:     %f1 = "gpu.free.block"(%le1, %p) : (!mem.M<1>, !mem.ptr<!mem.array<16 x f32>, 1>) -> !mem.M<1>
// GENERIC-NEXT:     %f2 = "gpu.free.asyn"(%f1, %q, %s) : (!mem.M<1>, !mem.ptr<!mem.array<? x f32>, 1>, !gpu.stream) -> !mem.M<1>
// GENERIC-NEXT:     %f3 = "gpu.free.asyn"(%f2, %t, %s) {tag} : (!mem.M<1>, !mem.ptr<!mem.array<? x !mem.array<4 x f32>>, 1>, !gpu.stream) -> !mem.M<1>
// GENERIC-NEXT:     %z0 = "gpu.deinit"(%le0, %f3, %le4) : (!mem.M<0>, !mem.M<1>, !mem.M<4>) -> !mem.M<0>
// GENERIC-NEXT:     "func.return"(%z0) : (!mem.M<0>) -> ()
// GENERIC-NEXT:   }) : () -> ()
// GENERIC-NEXT: }) : () -> ()
