// A gpu.shuffle tree that reduces an i32 over the whole warp (the upstream import's
// gpu.subgroup_reduce) is one redux.sync where the device module is lowered for sm_80 or later
// (device-to-llvm{sm=80}, which sets nvptx.sm), under the mask of the warp's existing lanes; the
// tree's shuffles go. Before sm_80, or for any architecture (no sm), the shuffles stay.
// RUN: gpu-opt %s -p 'device-to-llvm{sm=80}' | filecheck %s
// RUN: gpu-opt %s -p 'device-to-llvm{sm=75}' | filecheck %s --check-prefix=SHFL
// RUN: gpu-opt %s -p device-to-llvm | filecheck %s --check-prefix=SHFL

// SHFL-NOT: redux.sync
// SHFL:     llvm.func internal @umin(
// SHFL-COUNT-6: llvm.call_intrinsic "llvm.nvvm.shfl.sync.idx.i32"
// SHFL:     llvm.return

// The module gets the architecture:
// CHECK: builtin.module attributes {gpu.device, nvptx.sm = 80 : i64} {

// The whole tree (its combines with the lanes in either order): one redux.sync.umin.
// CHECK-LABEL: llvm.func internal @umin(
// CHECK-NOT:   shfl.sync
// CHECK:       %[[R:.*]] = llvm.call_intrinsic "llvm.nvvm.redux.sync.umin"(%{{.*}}, %{{.*}}) : (i32, i32) -> i32
// CHECK-NOT:   shfl.sync
// CHECK:       llvm.return

// A level's value used elsewhere: the reduce is a redux.sync, the levels below it stay.
// CHECK-LABEL: llvm.func internal @kept(
// CHECK-COUNT-4: llvm.call_intrinsic "llvm.nvvm.shfl.sync.idx.i32"
// CHECK-NOT:   shfl.sync
// CHECK:       llvm.call_intrinsic "llvm.nvvm.redux.sync.xor"
// CHECK-NOT:   shfl.sync
// CHECK:       llvm.return

// Not a reduce of one kind (an addi among the maxsi), not over the whole warp (width 16), or a
// kind redux.sync has not (muli): shuffles.
// CHECK-LABEL: llvm.func internal @mixed(
// CHECK-COUNT-6: llvm.call_intrinsic "llvm.nvvm.shfl.sync.idx.i32"
// CHECK-NOT:   redux.sync
// CHECK-LABEL: llvm.func internal @half(
// CHECK-COUNT-6: llvm.call_intrinsic "llvm.nvvm.shfl.sync.idx.i32"
// CHECK-NOT:   redux.sync
// CHECK-LABEL: llvm.func internal @product(
// CHECK-COUNT-6: llvm.call_intrinsic "llvm.nvvm.shfl.sync.idx.i32"
// CHECK-NOT:   redux.sync

builtin.module attributes {gpu.device} {
  func.func @umin(%m1: !mem.M<1>, %m3: !mem.M<3>, %v: i32) -> (!mem.M<1>, !mem.M<3>, i32) {
    %w = arith.constant 32 : i32
    %o16 = arith.constant 16 : i32
    %a16, %b16, %s16, %ok16 = gpu.shuffle "down" %m1, %m3, %v, %o16, %w : i32
    %c16 = arith.minui %v, %s16 : i32
    %v16 = arith.select %ok16, %c16, %v : i32
    %o8 = arith.constant 8 : i32
    %a8, %b8, %s8, %ok8 = gpu.shuffle "down" %a16, %b16, %v16, %o8, %w : i32
    %c8 = arith.minui %s8, %v16 : i32
    %v8 = arith.select %ok8, %c8, %v16 : i32
    %o4 = arith.constant 4 : i32
    %a4, %b4, %s4, %ok4 = gpu.shuffle "down" %a8, %b8, %v8, %o4, %w : i32
    %c4 = arith.minui %v8, %s4 : i32
    %v4 = arith.select %ok4, %c4, %v8 : i32
    %o2 = arith.constant 2 : i32
    %a2, %b2, %s2, %ok2 = gpu.shuffle "down" %a4, %b4, %v4, %o2, %w : i32
    %c2 = arith.minui %s2, %v4 : i32
    %v2 = arith.select %ok2, %c2, %v4 : i32
    %o1 = arith.constant 1 : i32
    %a1, %b1, %s1, %ok1 = gpu.shuffle "down" %a2, %b2, %v2, %o1, %w : i32
    %c1 = arith.minui %v2, %s1 : i32
    %v1 = arith.select %ok1, %c1, %v2 : i32
    %zero = arith.constant 0 : i32
    %e1, %e3, %r, %rok = gpu.shuffle "idx" %a1, %b1, %v1, %zero, %w : i32
    func.return %e1, %e3, %r : !mem.M<1>, !mem.M<3>, i32
  }

  func.func @kept(%m1: !mem.M<1>, %m3: !mem.M<3>, %v: i32) -> (!mem.M<1>, !mem.M<3>, i32, i32) {
    %w = arith.constant 32 : i32
    %o16 = arith.constant 16 : i32
    %a16, %b16, %s16, %ok16 = gpu.shuffle "down" %m1, %m3, %v, %o16, %w : i32
    %c16 = arith.xori %v, %s16 : i32
    %v16 = arith.select %ok16, %c16, %v : i32
    %o8 = arith.constant 8 : i32
    %a8, %b8, %s8, %ok8 = gpu.shuffle "down" %a16, %b16, %v16, %o8, %w : i32
    %c8 = arith.xori %v16, %s8 : i32
    %v8 = arith.select %ok8, %c8, %v16 : i32
    %o4 = arith.constant 4 : i32
    %a4, %b4, %s4, %ok4 = gpu.shuffle "down" %a8, %b8, %v8, %o4, %w : i32
    %c4 = arith.xori %v8, %s4 : i32
    %v4 = arith.select %ok4, %c4, %v8 : i32
    %o2 = arith.constant 2 : i32
    %a2, %b2, %s2, %ok2 = gpu.shuffle "down" %a4, %b4, %v4, %o2, %w : i32
    %c2 = arith.xori %v4, %s2 : i32
    %v2 = arith.select %ok2, %c2, %v4 : i32
    %o1 = arith.constant 1 : i32
    %a1, %b1, %s1, %ok1 = gpu.shuffle "down" %a2, %b2, %v2, %o1, %w : i32
    %c1 = arith.xori %v2, %s1 : i32
    %v1 = arith.select %ok1, %c1, %v2 : i32
    %zero = arith.constant 0 : i32
    %e1, %e3, %r, %rok = gpu.shuffle "idx" %a1, %b1, %v1, %zero, %w : i32
    func.return %e1, %e3, %r, %v2 : !mem.M<1>, !mem.M<3>, i32, i32
  }

  func.func @mixed(%m1: !mem.M<1>, %m3: !mem.M<3>, %v: i32) -> (!mem.M<1>, !mem.M<3>, i32) {
    %w = arith.constant 32 : i32
    %o16 = arith.constant 16 : i32
    %a16, %b16, %s16, %ok16 = gpu.shuffle "down" %m1, %m3, %v, %o16, %w : i32
    %c16 = arith.maxsi %v, %s16 : i32
    %v16 = arith.select %ok16, %c16, %v : i32
    %o8 = arith.constant 8 : i32
    %a8, %b8, %s8, %ok8 = gpu.shuffle "down" %a16, %b16, %v16, %o8, %w : i32
    %c8 = arith.maxsi %v16, %s8 : i32
    %v8 = arith.select %ok8, %c8, %v16 : i32
    %o4 = arith.constant 4 : i32
    %a4, %b4, %s4, %ok4 = gpu.shuffle "down" %a8, %b8, %v8, %o4, %w : i32
    %c4 = arith.addi %v8, %s4 : i32
    %v4 = arith.select %ok4, %c4, %v8 : i32
    %o2 = arith.constant 2 : i32
    %a2, %b2, %s2, %ok2 = gpu.shuffle "down" %a4, %b4, %v4, %o2, %w : i32
    %c2 = arith.maxsi %v4, %s2 : i32
    %v2 = arith.select %ok2, %c2, %v4 : i32
    %o1 = arith.constant 1 : i32
    %a1, %b1, %s1, %ok1 = gpu.shuffle "down" %a2, %b2, %v2, %o1, %w : i32
    %c1 = arith.maxsi %v2, %s1 : i32
    %v1 = arith.select %ok1, %c1, %v2 : i32
    %zero = arith.constant 0 : i32
    %e1, %e3, %r, %rok = gpu.shuffle "idx" %a1, %b1, %v1, %zero, %w : i32
    func.return %e1, %e3, %r : !mem.M<1>, !mem.M<3>, i32
  }

  func.func @half(%m1: !mem.M<1>, %m3: !mem.M<3>, %v: i32) -> (!mem.M<1>, !mem.M<3>, i32) {
    %w = arith.constant 16 : i32
    %o16 = arith.constant 16 : i32
    %a16, %b16, %s16, %ok16 = gpu.shuffle "down" %m1, %m3, %v, %o16, %w : i32
    %c16 = arith.addi %v, %s16 : i32
    %v16 = arith.select %ok16, %c16, %v : i32
    %o8 = arith.constant 8 : i32
    %a8, %b8, %s8, %ok8 = gpu.shuffle "down" %a16, %b16, %v16, %o8, %w : i32
    %c8 = arith.addi %v16, %s8 : i32
    %v8 = arith.select %ok8, %c8, %v16 : i32
    %o4 = arith.constant 4 : i32
    %a4, %b4, %s4, %ok4 = gpu.shuffle "down" %a8, %b8, %v8, %o4, %w : i32
    %c4 = arith.addi %v8, %s4 : i32
    %v4 = arith.select %ok4, %c4, %v8 : i32
    %o2 = arith.constant 2 : i32
    %a2, %b2, %s2, %ok2 = gpu.shuffle "down" %a4, %b4, %v4, %o2, %w : i32
    %c2 = arith.addi %v4, %s2 : i32
    %v2 = arith.select %ok2, %c2, %v4 : i32
    %o1 = arith.constant 1 : i32
    %a1, %b1, %s1, %ok1 = gpu.shuffle "down" %a2, %b2, %v2, %o1, %w : i32
    %c1 = arith.addi %v2, %s1 : i32
    %v1 = arith.select %ok1, %c1, %v2 : i32
    %zero = arith.constant 0 : i32
    %e1, %e3, %r, %rok = gpu.shuffle "idx" %a1, %b1, %v1, %zero, %w : i32
    func.return %e1, %e3, %r : !mem.M<1>, !mem.M<3>, i32
  }

  func.func @product(%m1: !mem.M<1>, %m3: !mem.M<3>, %v: i32) -> (!mem.M<1>, !mem.M<3>, i32) {
    %w = arith.constant 32 : i32
    %o16 = arith.constant 16 : i32
    %a16, %b16, %s16, %ok16 = gpu.shuffle "down" %m1, %m3, %v, %o16, %w : i32
    %c16 = arith.muli %v, %s16 : i32
    %v16 = arith.select %ok16, %c16, %v : i32
    %o8 = arith.constant 8 : i32
    %a8, %b8, %s8, %ok8 = gpu.shuffle "down" %a16, %b16, %v16, %o8, %w : i32
    %c8 = arith.muli %v16, %s8 : i32
    %v8 = arith.select %ok8, %c8, %v16 : i32
    %o4 = arith.constant 4 : i32
    %a4, %b4, %s4, %ok4 = gpu.shuffle "down" %a8, %b8, %v8, %o4, %w : i32
    %c4 = arith.muli %v8, %s4 : i32
    %v4 = arith.select %ok4, %c4, %v8 : i32
    %o2 = arith.constant 2 : i32
    %a2, %b2, %s2, %ok2 = gpu.shuffle "down" %a4, %b4, %v4, %o2, %w : i32
    %c2 = arith.muli %v4, %s2 : i32
    %v2 = arith.select %ok2, %c2, %v4 : i32
    %o1 = arith.constant 1 : i32
    %a1, %b1, %s1, %ok1 = gpu.shuffle "down" %a2, %b2, %v2, %o1, %w : i32
    %c1 = arith.muli %v2, %s1 : i32
    %v1 = arith.select %ok1, %c1, %v2 : i32
    %zero = arith.constant 0 : i32
    %e1, %e3, %r, %rok = gpu.shuffle "idx" %a1, %b1, %v1, %zero, %w : i32
    func.return %e1, %e3, %r : !mem.M<1>, !mem.M<3>, i32
  }
}
