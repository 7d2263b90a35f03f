// A launch of a work-group function (what cpu-workgroup-loops makes of a kernel) passes the
// arguments that follow its tokens, group, item count and shared-memory pointers.
// RUN: not gpu-opt %s 2>&1 | filecheck %s

// CHECK: cpu-workgroup-loops-launch-invalid.mlir:19:3: error: 'gpu.launch' of @k: the work-group function takes arguments (f32), the launch passes (i32)

func.func @k(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>, %group_id: index,
             %n_items: index, %shared: !mem.ptr<!mem.array<? x i8>, 3>,
             %smem: !mem.ptr<!mem.array<? x i8>, 3>, %x: f32)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) attributes {gpu.workgroup, gpu.shared_bytes = 0 : i64} {
  func.return %m1, %m3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}

func.func @main(%m: !mem.M<0>) -> (!mem.M<0>) {
  %m0, %m1, %m4 = gpu.init %m
  %s = gpu.default_stream
  %one = arith.constant 1 : index
  %x = arith.constant 2 : i32
  %l0, %l1, %l4 = gpu.launch @k grid(%one, %one) stream(%s) mems(%m0, %m1, %m4) args(%x) : (i32)
  %e = gpu.deinit %l0, %l1, %l4
  func.return %e : !mem.M<0>
}
