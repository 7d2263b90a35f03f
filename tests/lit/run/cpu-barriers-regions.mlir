// Barriers inside scf.execute_region and scf.index_switch: the cpu provider runs the kernel in
// its resumable form (the regions become cf blocks first), with the results interp gives. Each
// item stores its id in shared memory, passes the barriers, then reads the mirrored slot.
// RUN: gpu-run %s --provider interp 0 | filecheck %s
// RUN: gpu-run %s --provider cpu 0 | filecheck %s
// RUN: gpu-run %s --provider cpu 1 | filecheck %s
// RUN: gpu-opt %s -p 'split-apply,cpu-workgroup-loops' 2>&1 | filecheck %s --check-prefix=LOWERED

// CHECK:      3
// CHECK-NEXT: 0
// CHECK-EMPTY:
// LOWERED-NOT: error
// LOWERED:     func.func @kernel({{.*}} attributes {gpu.workgroup, {{.*}}gpu.resume_barriers = [["gpu.sync_work_items", "{{.*}}cpu-barriers-regions.mlir", {{[0-9]+}} : i64, 5 : i64], ["gpu.sync_work_items", "{{.*}}", {{[0-9]+}} : i64, 5 : i64], ["gpu.sync_work_items", "{{.*}}", {{[0-9]+}} : i64, 5 : i64]]}
// LOWERED:     func.func @kernel.resume(
// LOWERED-NOT: scf.execute_region
// LOWERED-NOT: scf.index_switch

func.func @kernel(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
                  %group: index, %item: index, %data: !mem.ptr<!mem.array<4 x i32>, 1>, %how: index)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
  %a3, %shared = mem.slot %m3 : !mem.ptr<!mem.array<4 x i32>, 3>
  %mine = mem.lea %shared, %item : !mem.ptr<!mem.array<4 x i32>, 3>
  %id = arith.index_cast %item : index to i32
  %b3 = mem.store %a3, %mine, %id : !mem.ptr<i32, 3>
  %c1, %c3 = scf.execute_region -> (!mem.M<1>, !mem.M<3>) {
    %s1, %s3 = gpu.sync_work_items %m1, %b3
    scf.yield %s1, %s3 : !mem.M<1>, !mem.M<3>
  }
  %d1, %d3 = scf.index_switch %how -> !mem.M<1>, !mem.M<3>
  case 1 {
    %t1, %t3 = gpu.sync_work_items %c1, %c3
    scf.yield %t1, %t3 : !mem.M<1>, !mem.M<3>
  }
  default {
    %u1, %u3 = gpu.sync_work_items %c1, %c3
    scf.yield %u1, %u3 : !mem.M<1>, !mem.M<3>
  }
  %three = arith.constant 3 : index
  %mirror = arith.subi %three, %item : index
  %theirs = mem.lea %shared, %mirror : !mem.ptr<!mem.array<4 x i32>, 3>
  %e3, %v = mem.load %d3, %theirs : !mem.ptr<i32, 3>
  %out = mem.lea %data, %item : !mem.ptr<!mem.array<4 x i32>, 1>
  %e1 = mem.store %d1, %out, %v : !mem.ptr<i32, 1>
  func.return %e1, %e3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}

func.func @main(%m: !mem.M<0>, %how: index) -> (!mem.M<0>, i32, i32) {
  %m0, %m1, %m4 = gpu.init %m
  %a1, %dev = gpu.alloc.block %m1 : !mem.ptr<!mem.array<4 x i32>, 1>
  %stream = gpu.default_stream
  %one = arith.constant 1 : index
  %four = arith.constant 4 : index
  %l0, %l1, %l4 = gpu.launch @kernel grid(%one, %four) stream(%stream) mems(%m0, %a1, %m4)
      args(%dev, %how) : (!mem.ptr<!mem.array<4 x i32>, 1>, index)
  %h0, %host = mem.alloc %l0 : !mem.ptr<!mem.array<4 x i32>, 0>
  %b0, %b1 = gpu.copy_to_host.block %h0, %l1, %dev -> %host : !mem.ptr<!mem.array<4 x i32>, 1> -> !mem.ptr<!mem.array<4 x i32>, 0>
  %z = arith.constant 0 : index
  %p0 = mem.lea %host, %z : !mem.ptr<!mem.array<4 x i32>, 0>
  %c0, %v0 = mem.load %b0, %p0 : !mem.ptr<i32, 0>
  %three = arith.constant 3 : index
  %q3 = mem.lea %host, %three : !mem.ptr<!mem.array<4 x i32>, 0>
  %d0, %v3 = mem.load %c0, %q3 : !mem.ptr<i32, 0>
  %f1 = gpu.free.block %b1, %dev : !mem.ptr<!mem.array<4 x i32>, 1>
  %f0 = mem.free %d0, %host : !mem.ptr<!mem.array<4 x i32>, 0>
  %done = gpu.deinit %f0, %f1, %l4
  func.return %done, %v0, %v3 : !mem.M<0>, i32, i32
}
