// RUN: gpu-opt %s | filecheck %s
// RUN: gpu-opt %s --print-op-generic | gpu-opt | filecheck %s

// Every gpu op written in the generic form of IR.md, as tests outside the project write it
// (the launch with its properties in IR.md's order): it parses, verifies and prints in the
// custom syntax.

func.func @kernel(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>, %gid: index, %iid: index, %smem: !mem.ptr<!mem.array<4 x i32>, 3>, %p: !mem.ptr<!mem.array<? x i32>, 1>) -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
  %a1, %a3 = "gpu.sync_work_items"(%m1, %m3) : (!mem.M<1>, !mem.M<3>) -> (!mem.M<1>, !mem.M<3>)
  %b1, %b3 = "gpu.synced_scope"(%a1, %a3) ({
  ^bb0(%x1: !mem.M<1>, %x3: !mem.M<3>):
    "gpu.yield"(%x1, %x3) : (!mem.M<1>, !mem.M<3>) -> ()
  }) : (!mem.M<1>, !mem.M<3>) -> (!mem.M<1>, !mem.M<3>)
  %c1, %c3, %sum = "gpu.workgroup_reduce"(%b1, %b3, %iid) <{kind = "add"}> : (!mem.M<1>, !mem.M<3>, index) -> (!mem.M<1>, !mem.M<3>, index)
  %d1, %d3, %pre = "gpu.workgroup_scan"(%c1, %c3, %sum) <{kind = "max"}> : (!mem.M<1>, !mem.M<3>, index) -> (!mem.M<1>, !mem.M<3>, index)
  func.return %d1, %d3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}

func.func @main(%m0: !mem.M<0>, %n: index, %h: !mem.ptr<!mem.array<4 x i32>, 0>, %buf: !buffer.buf<2x2xf32>, %slot: !mem.ptr<!gpu.stream, 0>) -> !mem.M<0> {
  %i0, %i1, %i4 = "gpu.init"(%m0) : (!mem.M<0>) -> (!mem.M<0>, !mem.M<1>, !mem.M<4>)
  %d0 = "gpu.deinit"(%i0, %i1, %i4) : (!mem.M<0>, !mem.M<1>, !mem.M<4>) -> !mem.M<0>
  %a0, %a1, %a4 = "gpu.auto_init"(%d0) : (!mem.M<0>) -> (!mem.M<0>, !mem.M<1>, !mem.M<4>)
  %ds = "gpu.default_stream"() : () -> !gpu.stream
  %si0, %si1 = "gpu.stream_init"(%a0, %a1, %slot) : (!mem.M<0>, !mem.M<1>, !mem.ptr<!gpu.stream, 0>) -> (!mem.M<0>, !mem.M<1>)
  %ss0, %ss1 = "gpu.stream_sync"(%si0, %si1, %ds) : (!mem.M<0>, !mem.M<1>, !gpu.stream) -> (!mem.M<0>, !mem.M<1>)
  %sd0, %sd1 = "gpu.stream_deinit"(%ss0, %ss1, %ds) : (!mem.M<0>, !mem.M<1>, !gpu.stream) -> (!mem.M<0>, !mem.M<1>)
  %w0, %w1 = "gpu.with_streams"(%sd0, %sd1) <{count = 1 : i64}> ({
  ^bb0(%x0: !mem.M<0>, %x1: !mem.M<1>, %s: !gpu.stream):
    "gpu.yield"(%x0, %x1) : (!mem.M<0>, !mem.M<1>) -> ()
  }) : (!mem.M<0>, !mem.M<1>) -> (!mem.M<0>, !mem.M<1>)
  %b1, %p = "gpu.alloc.block"(%w1, %n) : (!mem.M<1>, index) -> (!mem.M<1>, !mem.ptr<!mem.array<? x i32>, 1>)
  %b2, %q = "gpu.alloc.asyn"(%b1, %ds) : (!mem.M<1>, !gpu.stream) -> (!mem.M<1>, !mem.ptr<!mem.array<4 x i32>, 1>)
  %b3, %r = "gpu.alloc.asyn"(%b2, %ds, %n) : (!mem.M<1>, !gpu.stream, index) -> (!mem.M<1>, !mem.ptr<!mem.array<? x f32>, 1>)
  %c0, %c1 = "gpu.copy_to_device.block"(%w0, %b3, %h, %q) : (!mem.M<0>, !mem.M<1>, !mem.ptr<!mem.array<4 x i32>, 0>, !mem.ptr<!mem.array<4 x i32>, 1>) -> (!mem.M<0>, !mem.M<1>)
  %c2, %c3 = "gpu.copy_to_device.asyn"(%c0, %c1, %h, %q, %ds) : (!mem.M<0>, !mem.M<1>, !mem.ptr<!mem.array<4 x i32>, 0>, !mem.ptr<!mem.array<4 x i32>, 1>, !gpu.stream) -> (!mem.M<0>, !mem.M<1>)
  %c4, %c5 = "gpu.copy_to_host.block"(%c2, %c3, %q, %h) : (!mem.M<0>, !mem.M<1>, !mem.ptr<!mem.array<4 x i32>, 1>, !mem.ptr<!mem.array<4 x i32>, 0>) -> (!mem.M<0>, !mem.M<1>)
  %c6, %c7 = "gpu.copy_to_host.asyn"(%c4, %c5, %q, %h, %ds) : (!mem.M<0>, !mem.M<1>, !mem.ptr<!mem.array<4 x i32>, 1>, !mem.ptr<!mem.array<4 x i32>, 0>, !gpu.stream) -> (!mem.M<0>, !mem.M<1>)
  %e0, %e1, %e = "gpu.alloc_copy.block"(%c6, %c7, %h) : (!mem.M<0>, !mem.M<1>, !mem.ptr<!mem.array<4 x i32>, 0>) -> (!mem.M<0>, !mem.M<1>, !mem.ptr<!mem.array<4 x i32>, 1>)
  %f0, %f1, %f = "gpu.alloc_copy.asyn"(%e0, %e1, %h, %ds) : (!mem.M<0>, !mem.M<1>, !mem.ptr<!mem.array<4 x i32>, 0>, !gpu.stream) -> (!mem.M<0>, !mem.M<1>, !mem.ptr<!mem.array<4 x i32>, 1>)
  %g0, %g1, %g = "gpu.buf_alloc_copy"(%f0, %f1, %buf) : (!mem.M<0>, !mem.M<1>, !buffer.buf<2x2xf32>) -> (!mem.M<0>, !mem.M<1>, !mem.ptr<!mem.array<2 x !mem.array<2 x f32>>, 1>)
  %h0, %h1 = "gpu.buf_copy_to_host"(%g0, %g1, %g, %buf) : (!mem.M<0>, !mem.M<1>, !mem.ptr<!mem.array<2 x !mem.array<2 x f32>>, 1>, !buffer.buf<2x2xf32>) -> (!mem.M<0>, !mem.M<1>)
  %l0, %l1, %l4 = "gpu.launch"(%n, %n, %ds, %h0, %h1, %a4, %p) <{kernel = @kernel, smem = !mem.array<4 x i32>, operandSegmentSizes = array<i32: 1, 1, 1, 0, 1, 1, 1, 1>}> : (index, index, !gpu.stream, !mem.M<0>, !mem.M<1>, !mem.M<4>, !mem.ptr<!mem.array<? x i32>, 1>) -> (!mem.M<0>, !mem.M<1>, !mem.M<4>)
  %k1 = "gpu.free.block"(%l1, %p) : (!mem.M<1>, !mem.ptr<!mem.array<? x i32>, 1>) -> !mem.M<1>
  %k2 = "gpu.free.asyn"(%k1, %q, %ds) : (!mem.M<1>, !mem.ptr<!mem.array<4 x i32>, 1>, !gpu.stream) -> !mem.M<1>
  %z0 = "gpu.auto_deinit"(%l0, %k2, %l4) : (!mem.M<0>, !mem.M<1>, !mem.M<4>) -> !mem.M<0>
  func.return %z0 : !mem.M<0>
}

// CHECK:      builtin.module {
// CHECK-NEXT:   func.func @kernel(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>, %gid: index, %iid: index, %smem: !mem.ptr<!mem.array<4 x i32>, 3>, %p: !mem.ptr<!mem.array<? x i32>, 1>) -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
// CHECK-NEXT:     %a1, %a3 = gpu.sync_work_items %m1, %m3
// CHECK-NEXT:     %b1, %b3 = gpu.synced_scope %a1, %a3 {
// CHECK-NEXT:     ^bb0(%x1: !mem.M<1>, %x3: !mem.M<3>):
// CHECK-NEXT:       gpu.yield %x1, %x3 : !mem.M<1>, !mem.M<3>
// CHECK-NEXT:     }
// CHECK-NEXT:     %c1, %c3, %sum = gpu.workgroup_reduce "add" %b1, %b3, %iid : index
// CHECK-NEXT:     %d1, %d3, %pre = gpu.workgroup_scan "max" %c1, %c3, %sum : index
// CHECK-NEXT:     func.return %d1, %d3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func @main(%m0: !mem.M<0>, %n: index, %h: !mem.ptr<!mem.array<4 x i32>, 0>, %buf: !buffer.buf<2x2xf32>, %slot: !mem.ptr<!gpu.stream, 0>) -> !mem.M<0> {
// CHECK-NEXT:     %i0, %i1, %i4 = gpu.init %m0
// CHECK-NEXT:     %d0 = gpu.deinit %i0, %i1, %i4
// CHECK-NEXT:     %a0, %a1, %a4 = gpu.auto_init %d0
// CHECK-NEXT:     %ds = gpu.default_stream
// CHECK-NEXT:     %si0, %si1 = gpu.stream_init %a0, %a1, %slot
// CHECK-NEXT:     %ss0, %ss1 = gpu.stream_sync %si0, %si1, %ds
// CHECK-NEXT:     %sd0, %sd1 = gpu.stream_deinit %ss0, %ss1, %ds
// CHECK-NEXT:     %w0, %w1 = gpu.with_streams %sd0, %sd1 count 1 {
// CHECK-NEXT:     ^bb0(%x0: !mem.M<0>, %x1: !mem.M<1>, %s: !gpu.stream):
// CHECK-NEXT:       gpu.yield %x0, %x1 : !mem.M<0>, !mem.M<1>
// CHECK-NEXT:     }
// CHECK-NEXT:     %b1, %p = gpu.alloc.block %w1, %n : !mem.ptr<!mem.array<? x i32>, 1>
// CHECK-NEXT:     %b2, %q = gpu.alloc.asyn %b1 on %ds : !mem.ptr<!mem.array<4 x i32>, 1>
// CHECK-NEXT:     %b3, %r = gpu.alloc.asyn %b2, %n on %ds : !mem.ptr<!mem.array<? x f32>, 1>
// CHECK-NEXT:     %c0, %c1 = gpu.copy_to_device.block %w0, %b3, %h -> %q : !mem.ptr<!mem.array<4 x i32>, 0> -> !mem.ptr<!mem.array<4 x i32>, 1>
// CHECK-NEXT:     %c2, %c3 = gpu.copy_to_device.asyn %c0, %c1, %h -> %q on %ds : !mem.ptr<!mem.array<4 x i32>, 0> -> !mem.ptr<!mem.array<4 x i32>, 1>
// CHECK-NEXT:     %c4, %c5 = gpu.copy_to_host.block %c2, %c3, %q -> %h : !mem.ptr<!mem.array<4 x i32>, 1> -> !mem.ptr<!mem.array<4 x i32>, 0>
// CHECK-NEXT:     %c6, %c7 = gpu.copy_to_host.asyn %c4, %c5, %q -> %h on %ds : !mem.ptr<!mem.array<4 x i32>, 1> -> !mem.ptr<!mem.array<4 x i32>, 0>
// CHECK-NEXT:     %e0, %e1, %e = gpu.alloc_copy.block %c6, %c7, %h : !mem.ptr<!mem.array<4 x i32>, 0> -> !mem.ptr<!mem.array<4 x i32>, 1>
// CHECK-NEXT:     %f0, %f1, %f = gpu.alloc_copy.asyn %e0, %e1, %h on %ds : !mem.ptr<!mem.array<4 x i32>, 0> -> !mem.ptr<!mem.array<4 x i32>, 1>
// CHECK-NEXT:     %g0, %g1, %g = gpu.buf_alloc_copy %f0, %f1, %buf : !buffer.buf<2x2xf32> -> !mem.ptr<!mem.array<2 x !mem.array<2 x f32>>, 1>
// CHECK-NEXT:     %h0, %h1 = gpu.buf_copy_to_host %g0, %g1, %g -> %buf : !mem.ptr<!mem.array<2 x !mem.array<2 x f32>>, 1> -> !buffer.buf<2x2xf32>
// CHECK-NEXT:     %l0, %l1, %l4 = gpu.launch @kernel grid(%n, %n) stream(%ds) smem(!mem.array<4 x i32>) mems(%h0, %h1, %a4) args(%p) : (!mem.ptr<!mem.array<? x i32>, 1>)
// CHECK-NEXT:     %k1 = gpu.free.block %l1, %p : !mem.ptr<!mem.array<? x i32>, 1>
// CHECK-NEXT:     %k2 = gpu.free.asyn %k1, %q on %ds : !mem.ptr<!mem.array<4 x i32>, 1>
// CHECK-NEXT:     %z0 = gpu.auto_deinit %l0, %k2, %l4
// CHECK-NEXT:     func.return %z0 : !mem.M<0>
// CHECK-NEXT:   }
// CHECK-NEXT: }
