// RUN: gpu-opt %s -p convert-gpu-to-nvvm --split-input-file | filecheck %s
// RUN: gpu-opt %s -p convert-gpu-to-nvvm --split-input-file --mlir-pass-statistics -o /dev/null 2>&1 | filecheck %s --check-prefix=STATS

// The statistics of the whole file: two kernels, two `gpu.sync_work_items`.
// STATS:      {{^}}ConvertGpuToNvvm
// STATS-NEXT:   (S) 2 num-barriers-lowered    - Number of gpu.sync_work_items made bar.sync
// STATS-NEXT:   (S) 0 num-collectives-lowered - Number of work-group reductions and scans made calls
// STATS-NEXT:   (S) 0 num-fences-lowered      - Number of gpu.fence ops made llvm.fence
// STATS-NEXT:   (S) 2 num-kernels-lowered     - Number of kernels whose ids and shared memory come from NVVM
// STATS-NEXT:   (S) 0 num-nvvm-ops-lowered    - Number of nvvm ops made intrinsic calls
// STATS-NEXT:   (S) 0 num-warp-ops-lowered    - Number of lane ids, shuffles and ballots lowered to NVVM

// A kernel's group and item ids become reads of %ctaid.x and %tid.x (zero-extended to the i64
// of an index), its dynamic shared memory the address of @__dynamic_smem; the three parameters
// go. A barrier becomes the NVVM intrinsic; its tokens pass through. The host module is left
// alone.
builtin.module {
  builtin.module @host {
    func.func @main(%m: !mem.M<0>) -> !mem.M<0> {
      func.return %m : !mem.M<0>
    }
  }
  builtin.module @device attributes {gpu.device} {
    func.func @k(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
                 %group: index, %item: index, %smem: !mem.ptr<!mem.array<? x f32>, 3>,
                 %out: !mem.ptr<!mem.array<? x f32>, 1>)
        -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) attributes {gpu.kernel} {
      %e = mem.lea %smem, %item : !mem.ptr<!mem.array<? x f32>, 3>
      %a3, %v = mem.load %m3, %e : !mem.ptr<f32, 3>
      %b1, %b3 = gpu.sync_work_items %m1, %a3
      %o = mem.lea %out, %group : !mem.ptr<!mem.array<? x f32>, 1>
      %c1 = mem.store %b1, %o, %v : !mem.ptr<f32, 1>
      func.return %c1, %b3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
    }
  }
}

// CHECK: builtin.module {
// CHECK-NEXT:   builtin.module @host {
// CHECK-NEXT:     func.func @main(%m: !mem.M<0>) -> !mem.M<0> {
// CHECK-NEXT:       func.return %m : !mem.M<0>
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT:   builtin.module @device attributes {gpu.device} {
// CHECK-NEXT:     llvm.mlir.global external @__dynamic_smem() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
// CHECK-NEXT:     func.func @k(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>, %out: !mem.ptr<!mem.array<? x f32>, 1>) -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) attributes {gpu.kernel} {
// CHECK-NEXT:       %0 = llvm.call_intrinsic "llvm.nvvm.read.ptx.sreg.ctaid.x"() : () -> i32
// CHECK-NEXT:       %1 = llvm.zext nneg %0 : i32 to i64
// CHECK-NEXT:       %group = builtin.unrealized_conversion_cast %1 : i64 to index
// CHECK-NEXT:       %2 = llvm.call_intrinsic "llvm.nvvm.read.ptx.sreg.tid.x"() : () -> i32
// CHECK-NEXT:       %3 = llvm.zext nneg %2 : i32 to i64
// CHECK-NEXT:       %item = builtin.unrealized_conversion_cast %3 : i64 to index
// CHECK-NEXT:       %4 = llvm.mlir.addressof @__dynamic_smem : !llvm.ptr<3>
// CHECK-NEXT:       %smem = builtin.unrealized_conversion_cast %4 : !llvm.ptr<3> to !mem.ptr<!mem.array<? x f32>, 3>
// CHECK-NEXT:       %e = mem.lea %smem, %item : !mem.ptr<!mem.array<? x f32>, 3>
// CHECK-NEXT:       %a3, %v = mem.load %m3, %e : !mem.ptr<f32, 3>
// CHECK-NEXT:       %5 = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT:       llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.all"(%5) : (i32) -> ()
// CHECK-NEXT:       %o = mem.lea %out, %group : !mem.ptr<!mem.array<? x f32>, 1>
// CHECK-NEXT:       %c1 = mem.store %m1, %o, %v : !mem.ptr<f32, 1>
// CHECK-NEXT:       func.return %c1, %a3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT: }

// -----

// Unused ids read nothing; a kernel that takes smem without using it declares no array.
builtin.module attributes {gpu.device} {
  func.func @k(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
               %group: index, %item: index, %smem: !mem.ptr<!mem.array<4 x i32>, 3>, %x: i32)
      -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) attributes {gpu.kernel} {
    func.return %m1, %m3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
  }
  // A device function (not a kernel) keeps its signature; its barrier is lowered.
  func.func @helper(%m1: !mem.M<1>, %m3: !mem.M<3>, %i: index) -> (!mem.M<1>, !mem.M<3>) {
    %a1, %a3 = gpu.sync_work_items %m1, %m3
    func.return %a1, %a3 : !mem.M<1>, !mem.M<3>
  }
}

// CHECK: builtin.module attributes {gpu.device} {
// CHECK-NEXT:   func.func @k(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>, %x: i32) -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) attributes {gpu.kernel} {
// CHECK-NEXT:     func.return %m1, %m3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func @helper(%m1: !mem.M<1>, %m3: !mem.M<3>, %i: index) -> (!mem.M<1>, !mem.M<3>) {
// CHECK-NEXT:     %0 = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT:     llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.all"(%0) : (i32) -> ()
// CHECK-NEXT:     func.return %m1, %m3 : !mem.M<1>, !mem.M<3>
// CHECK-NEXT:   }
// CHECK-NEXT: }
