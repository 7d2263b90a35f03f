// RUN: gpu-opt %s -p convert-gpu-to-nvvm | filecheck %s
// RUN: gpu-opt %s -p device-to-llvm | filecheck %s --check-prefix=LLVM

// A collective becomes a call of a function made for its kind and type; its tokens pass through.
// The function works in a static shared array of 1024 elements per element type, with barriers.
// Reduce: every item stores its value at scratch[item]; one barrier; then one level of the fixed
// tree per barrier, deepest first (ceil(log2 n) = 32 - ctlz(n - 1) levels): item j < 2^d walks
// from [0, n) along the d bits of j to its node [lo, hi) and, when hi - lo > 1, does
// scratch[lo] = scratch[lo] + scratch[(lo + hi) >> 1]; everyone reads scratch[0]; a barrier.
// Scan: item 0 folds scratch[1..n) in item order, in place; everyone reads its own slot.
builtin.module attributes {gpu.device} {
  func.func @k(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
               %group: index, %item: index, %f: f32, %i: i32)
      -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) attributes {gpu.kernel} {
    %a1, %a3, %r = gpu.workgroup_reduce "add" %m1, %m3, %f : f32
    %b1, %b3, %s = gpu.workgroup_scan "min" %a1, %a3, %i : i32
    %c1, %c3, %t = gpu.workgroup_reduce "add" %b1, %b3, %r : f32
    func.return %c1, %c3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
  }
}

// CHECK:      builtin.module attributes {gpu.device} {
// CHECK-NEXT:  llvm.mlir.global internal @__gpuir_wg_scratch_i32() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<1024 x i32>
// CHECK-NEXT:  llvm.mlir.global internal @__gpuir_wg_scratch_f32() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<1024 x f32>
// CHECK-NEXT:  func.func @k(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>, %f: f32, %i: i32) -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) attributes {gpu.kernel} {
// CHECK-NEXT:    %r = func.call @__gpuir_workgroup_reduce_add_f32(%f) : (f32) -> f32
// CHECK-NEXT:    %s = func.call @__gpuir_workgroup_scan_min_i32(%i) : (i32) -> i32
// CHECK-NEXT:    %t = func.call @__gpuir_workgroup_reduce_add_f32(%r) : (f32) -> f32
// CHECK-NEXT:    func.return %m1, %m3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
// CHECK-NEXT:  }
// CHECK-NEXT:  func.func @__gpuir_workgroup_reduce_add_f32(%0: f32) -> f32 {
// CHECK-NEXT:    %1 = llvm.call_intrinsic "llvm.nvvm.read.ptx.sreg.tid.x"() : () -> i32
// CHECK-NEXT:    %2 = llvm.call_intrinsic "llvm.nvvm.read.ptx.sreg.ntid.x"() : () -> i32
// CHECK-NEXT:    %3 = llvm.mlir.addressof @__gpuir_wg_scratch_f32 : !llvm.ptr<3>
// CHECK-NEXT:    %4 = llvm.getelementptr inbounds %3[%1] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
// CHECK-NEXT:    llvm.store %0, %4 : f32, !llvm.ptr<3>
// CHECK-NEXT:    %5 = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT:    llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.all"(%5) : (i32) -> ()
// CHECK-NEXT:    %6 = arith.constant 0 : i32
// CHECK-NEXT:    %7 = arith.constant 1 : i32
// CHECK-NEXT:    %8 = arith.subi %2, %7 : i32
// CHECK-NEXT:    %9 = math.ctlz %8 : i32
// CHECK-NEXT:    %10 = arith.constant 32 : i32
// CHECK-NEXT:    %11 = arith.subi %10, %9 : i32
// CHECK-NEXT:    cf.br ^bb1(%6 : i32)
// CHECK-NEXT:  ^bb1(%12: i32):
// CHECK-NEXT:    %13 = arith.cmpi slt, %12, %11 : i32
// CHECK-NEXT:    cf.cond_br %13, ^bb2, ^bb10
// CHECK-NEXT:  ^bb2:
// CHECK-NEXT:    %14 = arith.subi %11, %7 : i32
// CHECK-NEXT:    %15 = arith.subi %14, %12 : i32
// CHECK-NEXT:    %16 = arith.shli %7, %15 : i32
// CHECK-NEXT:    %17 = arith.cmpi ult, %1, %16 : i32
// CHECK-NEXT:    cf.cond_br %17, ^bb3, ^bb9
// CHECK-NEXT:  ^bb3:
// CHECK-NEXT:    cf.br ^bb4(%6, %6, %2 : i32, i32, i32)
// CHECK-NEXT:  ^bb4(%18: i32, %19: i32, %20: i32):
// CHECK-NEXT:    %21 = arith.cmpi slt, %18, %15 : i32
// CHECK-NEXT:    cf.cond_br %21, ^bb5, ^bb6
// CHECK-NEXT:  ^bb5:
// CHECK-NEXT:    %22 = arith.addi %19, %20 : i32
// CHECK-NEXT:    %23 = arith.shrui %22, %7 : i32
// CHECK-NEXT:    %24 = arith.subi %15, %7 : i32
// CHECK-NEXT:    %25 = arith.subi %24, %18 : i32
// CHECK-NEXT:    %26 = arith.shrui %1, %25 : i32
// CHECK-NEXT:    %27 = arith.andi %26, %7 : i32
// CHECK-NEXT:    %28 = arith.cmpi ne, %27, %6 : i32
// CHECK-NEXT:    %29 = arith.select %28, %23, %19 : i32
// CHECK-NEXT:    %30 = arith.select %28, %20, %23 : i32
// CHECK-NEXT:    %31 = arith.addi %18, %7 : i32
// CHECK-NEXT:    cf.br ^bb4(%31, %29, %30 : i32, i32, i32)
// CHECK-NEXT:  ^bb6:
// CHECK-NEXT:    %32 = arith.subi %20, %19 : i32
// CHECK-NEXT:    %33 = arith.cmpi ugt, %32, %7 : i32
// CHECK-NEXT:    cf.cond_br %33, ^bb7, ^bb8
// CHECK-NEXT:  ^bb7:
// CHECK-NEXT:    %34 = arith.addi %19, %20 : i32
// CHECK-NEXT:    %35 = arith.shrui %34, %7 : i32
// CHECK-NEXT:    %36 = llvm.getelementptr inbounds %3[%19] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
// CHECK-NEXT:    %37 = llvm.load %36 : !llvm.ptr<3> -> f32
// CHECK-NEXT:    %38 = llvm.getelementptr inbounds %3[%35] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
// CHECK-NEXT:    %39 = llvm.load %38 : !llvm.ptr<3> -> f32
// CHECK-NEXT:    %40 = arith.addf %37, %39 : f32
// CHECK-NEXT:    %41 = llvm.getelementptr inbounds %3[%19] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
// CHECK-NEXT:    llvm.store %40, %41 : f32, !llvm.ptr<3>
// CHECK-NEXT:    cf.br ^bb8
// CHECK-NEXT:  ^bb8:
// CHECK-NEXT:    cf.br ^bb9
// CHECK-NEXT:  ^bb9:
// CHECK-NEXT:    %42 = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT:    llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.all"(%42) : (i32) -> ()
// CHECK-NEXT:    %43 = arith.addi %12, %7 : i32
// CHECK-NEXT:    cf.br ^bb1(%43 : i32)
// CHECK-NEXT:  ^bb10:
// CHECK-NEXT:    %44 = llvm.getelementptr inbounds %3[%6] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
// CHECK-NEXT:    %45 = llvm.load %44 : !llvm.ptr<3> -> f32
// CHECK-NEXT:    %46 = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT:    llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.all"(%46) : (i32) -> ()
// CHECK-NEXT:    func.return %45 : f32
// CHECK-NEXT:  }
// CHECK-NEXT:  func.func @__gpuir_workgroup_scan_min_i32(%0: i32) -> i32 {
// CHECK-NEXT:    %1 = llvm.call_intrinsic "llvm.nvvm.read.ptx.sreg.tid.x"() : () -> i32
// CHECK-NEXT:    %2 = llvm.call_intrinsic "llvm.nvvm.read.ptx.sreg.ntid.x"() : () -> i32
// CHECK-NEXT:    %3 = llvm.mlir.addressof @__gpuir_wg_scratch_i32 : !llvm.ptr<3>
// CHECK-NEXT:    %4 = llvm.getelementptr inbounds %3[%1] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i32
// CHECK-NEXT:    llvm.store %0, %4 : i32, !llvm.ptr<3>
// CHECK-NEXT:    %5 = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT:    llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.all"(%5) : (i32) -> ()
// CHECK-NEXT:    %6 = arith.constant 0 : i32
// CHECK-NEXT:    %7 = arith.constant 1 : i32
// CHECK-NEXT:    %8 = arith.cmpi eq, %1, %6 : i32
// CHECK-NEXT:    cf.cond_br %8, ^bb1, ^bb5
// CHECK-NEXT:  ^bb1:
// CHECK-NEXT:    %9 = llvm.getelementptr inbounds %3[%6] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i32
// CHECK-NEXT:    %10 = llvm.load %9 : !llvm.ptr<3> -> i32
// CHECK-NEXT:    cf.br ^bb2(%7, %10 : i32, i32)
// CHECK-NEXT:  ^bb2(%11: i32, %12: i32):
// CHECK-NEXT:    %13 = arith.cmpi slt, %11, %2 : i32
// CHECK-NEXT:    cf.cond_br %13, ^bb3, ^bb4
// CHECK-NEXT:  ^bb3:
// CHECK-NEXT:    %14 = llvm.getelementptr inbounds %3[%11] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i32
// CHECK-NEXT:    %15 = llvm.load %14 : !llvm.ptr<3> -> i32
// CHECK-NEXT:    %16 = arith.minsi %12, %15 : i32
// CHECK-NEXT:    %17 = llvm.getelementptr inbounds %3[%11] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i32
// CHECK-NEXT:    llvm.store %16, %17 : i32, !llvm.ptr<3>
// CHECK-NEXT:    %18 = arith.addi %11, %7 : i32
// CHECK-NEXT:    cf.br ^bb2(%18, %16 : i32, i32)
// CHECK-NEXT:  ^bb4:
// CHECK-NEXT:    cf.br ^bb5
// CHECK-NEXT:  ^bb5:
// CHECK-NEXT:    %19 = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT:    llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.all"(%19) : (i32) -> ()
// CHECK-NEXT:    %20 = llvm.getelementptr inbounds %3[%1] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i32
// CHECK-NEXT:    %21 = llvm.load %20 : !llvm.ptr<3> -> i32
// CHECK-NEXT:    %22 = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT:    llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.all"(%22) : (i32) -> ()
// CHECK-NEXT:    func.return %21 : i32
// CHECK-NEXT:  }
// CHECK-NEXT:}

// After device-to-llvm: the collectives' functions are internal llvm.funcs of blocks and branches.
// LLVM:      llvm.mlir.global internal @__gpuir_wg_scratch_i32() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<1024 x i32>
// LLVM-NEXT: llvm.mlir.global internal @__gpuir_wg_scratch_f32() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<1024 x f32>
// LLVM-NEXT: llvm.func @k(%f: f32, %i: i32) attributes {gpu.kernel, nvvm.kernel} {
// LLVM-NEXT:   %r = llvm.call @__gpuir_workgroup_reduce_add_f32(%f) : (f32) -> f32
// LLVM-NEXT:   %s = llvm.call @__gpuir_workgroup_scan_min_i32(%i) : (i32) -> i32
// LLVM-NEXT:   %t = llvm.call @__gpuir_workgroup_reduce_add_f32(%r) : (f32) -> f32
// LLVM-NEXT:   llvm.return
// LLVM:      llvm.func internal @__gpuir_workgroup_reduce_add_f32(%0: f32) -> f32 {
// LLVM:        llvm.store %0, %{{.*}} : f32, !llvm.ptr<3>
// LLVM-NEXT:   %{{.*}} = llvm.mlir.constant(0 : i32) : i32
// LLVM-NEXT:   llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.all"
// LLVM:        llvm.call_intrinsic "llvm.ctlz.i32"
// LLVM:        llvm.cond_br
// LLVM:        llvm.fadd
// LLVM:        llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.all"
// LLVM-NEXT:   %{{.*}} = llvm.add
// LLVM-NEXT:   llvm.br ^bb1
// LLVM:        llvm.load
// LLVM-NEXT:   %{{.*}} = llvm.mlir.constant(0 : i32) : i32
// LLVM-NEXT:   llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.all"
// LLVM-NEXT:   llvm.return
// LLVM:      llvm.func internal @__gpuir_workgroup_scan_min_i32(
// LLVM:        llvm.call_intrinsic "llvm.smin.i32"
// LLVM:        llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.all"
// LLVM:        llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.all"
// LLVM-NEXT:   llvm.return
