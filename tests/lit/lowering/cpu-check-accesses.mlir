// RUN: gpu-opt %s -p cpu-check-accesses --split-input-file | filecheck %s

// Each access to global or shared memory calls the checker first: its address, bytes, kind
// (0 read, 1 write, 2 atomic, +4 when the value is not known), the value written (its bits),
// the group and the item; each barrier calls it too, and each shared array and local slot says
// where it is. Local memory is checked for bounds only (kind + 8). The kernel is marked
// gpu.checked (red zones between its shared arrays and local slots, in cpu-workgroup-loops).
builtin.module attributes {gpu.device} {
  func.func @k(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
               %group: index, %item: index, %data: !mem.ptr<!mem.array<4 x f32>, 1>)
      -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) attributes {gpu.kernel} {
    %p = mem.lea %data, %item : !mem.ptr<!mem.array<4 x f32>, 1>
    %a1, %v = mem.load %m1, %p : !mem.ptr<f32, 1>
    %s1, %s3 = gpu.sync_work_items %a1, %m3
    %b1 = mem.store %s1, %p, %v : !mem.ptr<f32, 1>
    %one = arith.constant 1 : i32
    %t3, %q = mem.slot %s3 : !mem.ptr<i32, 3>
    %c3, %old = mem.atomic_rmw "add" %t3, %q, %one : !mem.ptr<i32, 3>
    %l5, %r = mem.slot %m5 : !mem.ptr<i32, 5>
    %d5 = mem.store %l5, %r, %one : !mem.ptr<i32, 5>
    func.return %b1, %c3, %m4, %d5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
  }
}

// CHECK-LABEL: func.func @k({{.*}} attributes {gpu.kernel, gpu.checked} {
// CHECK:         %[[CAST:.*]] = builtin.unrealized_conversion_cast %p : !mem.ptr<f32, 1> to !llvm.ptr<1>
// CHECK-NEXT:    %[[ADDRESS:.*]] = llvm.ptrtoint %[[CAST]] : !llvm.ptr<1> to i64
// CHECK-NEXT:    %[[VALUE:.*]] = arith.constant 0 : i64
// CHECK-NEXT:    %[[BYTES:.*]] = arith.constant 4 : i64
// CHECK-NEXT:    %[[READ:.*]] = arith.constant 0 : i64
// CHECK-NEXT:    %[[GROUP:.*]] = arith.index_cast %group : index to i64
// CHECK-NEXT:    %[[ITEM:.*]] = arith.index_cast %item : index to i64
// CHECK-NEXT:    llvm.call @__gpuir_check_access(%[[ADDRESS]], %[[BYTES]], %[[READ]], %[[VALUE]], %[[GROUP]], %[[ITEM]]) : (i64, i64, i64, i64, i64, i64) -> ()
// CHECK-NEXT:    %a1, %v = mem.load %m1, %p : !mem.ptr<f32, 1>
// CHECK:         llvm.call @__gpuir_check_barrier(%{{.*}}, %{{.*}}) : (i64, i64) -> ()
// CHECK-NEXT:    %s1, %s3 = gpu.sync_work_items %a1, %m3
// CHECK:         %[[BITS:.*]] = arith.bitcast %v : f32 to i32
// CHECK-NEXT:    %[[WIDE:.*]] = arith.extui %[[BITS]] : i32 to i64
// CHECK-NEXT:    %{{.*}} = arith.constant 4 : i64
// CHECK-NEXT:    %[[WRITE:.*]] = arith.constant 1 : i64
// CHECK:         llvm.call @__gpuir_check_access(%{{.*}}, %{{.*}}, %[[WRITE]], %[[WIDE]], %{{.*}}, %{{.*}})
// CHECK-NEXT:    %b1 = mem.store %s1, %p, %v : !mem.ptr<f32, 1>
// CHECK:         %t3, %q = mem.slot %s3 : !mem.ptr<i32, 3>
// CHECK-NEXT:    %[[SLOT:.*]] = builtin.unrealized_conversion_cast %q : !mem.ptr<i32, 3> to !llvm.ptr<3>
// CHECK-NEXT:    %[[AT:.*]] = llvm.ptrtoint %[[SLOT]] : !llvm.ptr<3> to i64
// CHECK-NEXT:    %[[SIZE:.*]] = arith.constant 4 : i64
// CHECK-NEXT:    llvm.call @__gpuir_check_slot(%[[AT]], %[[SIZE]]) : (i64, i64) -> ()
// CHECK:         %{{.*}} = builtin.unrealized_conversion_cast %q : !mem.ptr<i32, 3> to !llvm.ptr<3>
// CHECK:         %[[ATOMIC:.*]] = arith.constant 6 : i64
// CHECK:         llvm.call @__gpuir_check_access(%{{.*}}, %{{.*}}, %[[ATOMIC]], %{{.*}}, %{{.*}}, %{{.*}})
// CHECK-NEXT:    %c3, %old = mem.atomic_rmw "add" %t3, %q, %one : !mem.ptr<i32, 3>
// CHECK-NEXT:    %l5, %r = mem.slot %m5 : !mem.ptr<i32, 5>
// CHECK:         llvm.call @__gpuir_check_slot(
// CHECK:         %[[LOCAL:.*]] = arith.constant 9 : i64
// CHECK:         llvm.call @__gpuir_check_access(%{{.*}}, %{{.*}}, %[[LOCAL]], %{{.*}}, %{{.*}}, %{{.*}})
// CHECK-NEXT:    %d5 = mem.store %l5, %r, %one : !mem.ptr<i32, 5>
// CHECK:       llvm.func @__gpuir_check_access(i64, i64, i64, i64, i64, i64)
// CHECK-NEXT:  llvm.func @__gpuir_check_barrier(i64, i64)
// CHECK-NEXT:  llvm.func @__gpuir_check_slot(i64, i64)

// -----

// A function the kernel calls that accesses memory is inlined: its accesses know the ids.
builtin.module attributes {gpu.device} {
  func.func @put(%m1: !mem.M<1>, %p: !mem.ptr<i32, 1>, %v: i32) -> !mem.M<1> {
    %s1 = mem.store %m1, %p, %v : !mem.ptr<i32, 1>
    func.return %s1 : !mem.M<1>
  }
  func.func @k(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
               %group: index, %item: index, %out: !mem.ptr<i32, 1>)
      -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) attributes {gpu.kernel} {
    %v = arith.constant 7 : i32
    %s1 = func.call @put(%m1, %out, %v) : (!mem.M<1>, !mem.ptr<i32, 1>, i32) -> !mem.M<1>
    func.return %s1, %m3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
  }
}

// CHECK-LABEL: func.func @k
// CHECK-NOT:     func.call
// CHECK:         llvm.call @__gpuir_check_access(
// CHECK-NEXT:    mem.store

// -----

// A module with no kernel is left as it was.
builtin.module attributes {gpu.device} {
  func.func @f(%m1: !mem.M<1>, %p: !mem.ptr<i32, 1>) -> !mem.M<1> {
    %a1, %v = mem.load %m1, %p : !mem.ptr<i32, 1>
    func.return %a1 : !mem.M<1>
  }
}

// CHECK-LABEL: func.func @f
// CHECK-NOT:     llvm.call
// CHECK-NOT:   llvm.func
