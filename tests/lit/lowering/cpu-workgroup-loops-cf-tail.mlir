// A kernel whose cf blocks come after its last barrier: the tail (the entry block's ops after
// the barrier, and the other blocks) becomes @k.tail, which the last item loop calls per
// work-item; the kernel itself is one block of segments.
// RUN: gpu-opt %s -p cpu-workgroup-loops | filecheck %s

// CHECK:      func.func @k(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>, %group_id: index, %n_items: index,
// CHECK-SAME:     attributes {gpu.workgroup, gpu.shared_bytes = 32 : i64}
// CHECK:        scf.for %{{.*}} = %{{.*}} to %n_items
// CHECK:          mem.store
// CHECK:        scf.for %{{.*}} = %{{.*}} to %n_items
// CHECK:          func.call @k.tail(
// CHECK:      func.func @k.tail(
// CHECK:        cf.cond_br %{{.*}}, ^{{.*}}, ^{{.*}}
// CHECK:        func.return
// CHECK:        func.return
// CHECK-NOT:  gpu.sync_work_items

builtin.module attributes {gpu.device} {
  func.func @k(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
               %group: index, %item: index, %n: index, %out: !mem.ptr<!mem.array<? x i32>, 1>)
      -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) attributes {gpu.kernel} {
    %s3, %tile = mem.slot %m3 : !mem.ptr<!mem.array<8 x i32>, 3>
    %mine = mem.lea %tile, %item : !mem.ptr<!mem.array<8 x i32>, 3>
    %v = arith.index_cast %item : index to i32
    %w3 = mem.store %s3, %mine, %v : !mem.ptr<i32, 3>
    %b1, %b3 = gpu.sync_work_items %m1, %w3
    %done = arith.cmpi uge, %item, %n : index
    cf.cond_br %done, ^exit, ^work
  ^work:
    %l3, %x = mem.load %b3, %mine : !mem.ptr<i32, 3>
    %at = mem.lea %out, %item : !mem.ptr<!mem.array<? x i32>, 1>
    %t1 = mem.store %b1, %at, %x : !mem.ptr<i32, 1>
    func.return %t1, %l3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
  ^exit:
    func.return %b1, %b3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
  }
}
