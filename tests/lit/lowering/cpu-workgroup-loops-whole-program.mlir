// cpu-workgroup-loops on a whole program (after split-apply): the kernels become work-group
// functions, and the launches of them verify (the verifier knows a work-group function takes
// the launch's arguments after its tokens, group, item count and shared-memory pointers). The
// output reads back.
// RUN: gpu-opt %s -p 'split-apply,cpu-workgroup-loops' | filecheck %s
// RUN: gpu-opt %s -p 'split-apply,cpu-workgroup-loops' | gpu-opt | filecheck %s

// CHECK:      gpu.launch @device::@scale grid(%{{.*}}, %{{.*}}) stream(%{{.*}}) smem(!mem.array<? x f32>, %{{.*}}) mems({{.*}}) args(%{{.*}}, %{{.*}}) : (f32, !mem.ptr<!mem.array<16 x f32>, 1>)
// CHECK:      func.func @scale(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>, %group_id: index, %n_items: index, %shared: !mem.ptr<!mem.array<? x i8>, 3>, %smem: !mem.ptr<!mem.array<? x f32>, 3>, %x: f32, %p: !mem.ptr<!mem.array<16 x f32>, 1>) -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) attributes {gpu.workgroup, gpu.shared_bytes = 0 : i64, gpu.write_only = array<i64: 1>}

func.func @scale(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
                 %group: index, %item: index, %smem: !mem.ptr<!mem.array<? x f32>, 3>,
                 %x: f32, %p: !mem.ptr<!mem.array<16 x f32>, 1>)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
  %q = mem.lea %p, %item : !mem.ptr<!mem.array<16 x f32>, 1>
  %t = mem.store %m1, %q, %x : !mem.ptr<f32, 1>
  func.return %t, %m3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}

func.func @main(%m: !mem.M<0>) -> (!mem.M<0>) {
  %m0, %m1, %m4 = gpu.init %m
  %d1, %d = gpu.alloc.block %m1 : !mem.ptr<!mem.array<16 x f32>, 1>
  %s = gpu.default_stream
  %one = arith.constant 1 : index
  %n = arith.constant 16 : index
  %x = arith.constant 2.0 : f32
  %l0, %l1, %l4 = gpu.launch @scale grid(%one, %n) stream(%s) smem(!mem.array<? x f32>, %n)
      mems(%m0, %d1, %m4) args(%x, %d) : (f32, !mem.ptr<!mem.array<16 x f32>, 1>)
  %f1 = gpu.free.block %l1, %d : !mem.ptr<!mem.array<16 x f32>, 1>
  %e = gpu.deinit %l0, %f1, %l4
  func.return %e : !mem.M<0>
}
