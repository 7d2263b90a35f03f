// RUN: gpu-opt %s -p convert-gpu-to-nvvm --split-input-file | filecheck %s
// RUN: gpu-opt %s -p device-to-llvm --split-input-file | filecheck %s --check-prefix=LLVM

// A collective becomes a call of a function made for its kind and type; its tokens pass through.
// The function works in a static shared array of 1024 elements per element type, with barriers.
// Reduce branches on whether n = %ntid.x is a power of two (n & (n - 1) == 0).
// Yes: warp shuffles. width = min(n, 32) lanes, member mask 0xffffffff >> (32 - width), clamp
// ((32 - width) << 8) | 31; a loop over k < log2(width) = 31 - ctlz(width) (the same in the
// whole warp), o = 1 << k: own = own + shfl.down(own, o), the lower item on the left; lane 0 of
// each warp stores it at scratch[item >> 5]; a barrier. If n > 32, warp 0 loads scratch[lane]
// and does the same over the n >> 5 partials (full mask), item 0 stores the result at
// scratch[0]; a barrier.
// No: every item stores its value at scratch[item]; one barrier; then one level of the fixed
// tree per barrier, deepest first (ceil(log2 n) = 32 - ctlz(n - 1) levels): item j < 2^d walks
// from [0, n) along the d bits of j to its node [lo, hi) and, when hi - lo > 1, does
// scratch[lo] = scratch[lo] + scratch[(lo + hi) >> 1].
// Both: everyone reads scratch[0]; a barrier.
// Scan of an integer kind: in each warp (its lanes: min(n - first item, 32)), a loop over
// k < 5, o = 1 << k: every lane takes shfl.up(own, o) (clamp 0) and lanes >= o keep other + own
// (a select); the warp's last lane stores it at scratch[warp]; a barrier; item 0 folds
// scratch[1 .. ceil(n / 32)) in place; a barrier; items of warp w > 0 combine scratch[w - 1] on
// the left; a barrier.
// Scan of a float kind: item 0 folds scratch[1..n) in item order, in place; everyone reads its
// own slot.

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
// CHECK-NEXT:    %4 = arith.constant 0 : i32
// CHECK-NEXT:    %5 = arith.constant 1 : i32
// CHECK-NEXT:    %6 = arith.subi %2, %5 : i32
// CHECK-NEXT:    %7 = arith.andi %2, %6 : i32
// CHECK-NEXT:    %8 = arith.cmpi eq, %7, %4 : i32
// CHECK-NEXT:    cf.cond_br %8, ^bb1, ^bb16
// CHECK-NEXT:  ^bb1:
// CHECK-NEXT:    %9 = arith.constant 0 : i32
// CHECK-NEXT:    %10 = arith.constant 32 : i32
// CHECK-NEXT:    %11 = arith.minui %2, %10 : i32
// CHECK-NEXT:    %12 = arith.subi %10, %11 : i32
// CHECK-NEXT:    %13 = arith.constant -1 : i32
// CHECK-NEXT:    %14 = arith.shrui %13, %12 : i32
// CHECK-NEXT:    %15 = arith.constant 0 : i32
// CHECK-NEXT:    %16 = arith.constant 1 : i32
// CHECK-NEXT:    %17 = arith.constant 32 : i32
// CHECK-NEXT:    %18 = arith.subi %17, %11 : i32
// CHECK-NEXT:    %19 = arith.constant 8 : i32
// CHECK-NEXT:    %20 = arith.shli %18, %19 : i32
// CHECK-NEXT:    %21 = arith.constant 31 : i32
// CHECK-NEXT:    %22 = arith.ori %20, %21 : i32
// CHECK-NEXT:    %23 = math.ctlz %11 : i32
// CHECK-NEXT:    %24 = arith.constant 31 : i32
// CHECK-NEXT:    %25 = arith.subi %24, %23 : i32
// CHECK-NEXT:    cf.br ^bb2(%15, %0 : i32, f32)
// CHECK-NEXT:  ^bb2(%26: i32, %27: f32):
// CHECK-NEXT:    %28 = arith.cmpi slt, %26, %25 : i32
// CHECK-NEXT:    cf.cond_br %28, ^bb3, ^bb4
// CHECK-NEXT:  ^bb3:
// CHECK-NEXT:    %29 = arith.shli %16, %26 : i32
// CHECK-NEXT:    %30 = llvm.call_intrinsic "llvm.nvvm.shfl.sync.down.f32"(%14, %27, %29, %22) : (i32, f32, i32, i32) -> f32
// CHECK-NEXT:    %31 = arith.addf %27, %30 : f32
// CHECK-NEXT:    %32 = arith.addi %26, %16 : i32
// CHECK-NEXT:    cf.br ^bb2(%32, %31 : i32, f32)
// CHECK-NEXT:  ^bb4:
// CHECK-NEXT:    %33 = arith.constant 31 : i32
// CHECK-NEXT:    %34 = arith.andi %1, %33 : i32
// CHECK-NEXT:    %35 = arith.cmpi eq, %34, %9 : i32
// CHECK-NEXT:    %36 = arith.constant 5 : i32
// CHECK-NEXT:    %37 = arith.shrui %1, %36 : i32
// CHECK-NEXT:    cf.cond_br %35, ^bb5, ^bb6
// CHECK-NEXT:  ^bb5:
// CHECK-NEXT:    %38 = llvm.getelementptr inbounds %3[%37] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
// CHECK-NEXT:    llvm.store %27, %38 : f32, !llvm.ptr<3>
// CHECK-NEXT:    cf.br ^bb6
// CHECK-NEXT:  ^bb6:
// CHECK-NEXT:    %39 = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT:    llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.all"(%39) : (i32) -> ()
// CHECK-NEXT:    %40 = arith.cmpi ugt, %2, %10 : i32
// CHECK-NEXT:    cf.cond_br %40, ^bb7, ^bb15
// CHECK-NEXT:  ^bb7:
// CHECK-NEXT:    %41 = arith.cmpi ult, %1, %10 : i32
// CHECK-NEXT:    cf.cond_br %41, ^bb8, ^bb14
// CHECK-NEXT:  ^bb8:
// CHECK-NEXT:    %42 = arith.constant 5 : i32
// CHECK-NEXT:    %43 = arith.shrui %2, %42 : i32
// CHECK-NEXT:    %44 = llvm.getelementptr inbounds %3[%1] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
// CHECK-NEXT:    %45 = llvm.load %44 : !llvm.ptr<3> -> f32
// CHECK-NEXT:    %46 = arith.constant -1 : i32
// CHECK-NEXT:    %47 = arith.constant 0 : i32
// CHECK-NEXT:    %48 = arith.constant 1 : i32
// CHECK-NEXT:    %49 = arith.constant 32 : i32
// CHECK-NEXT:    %50 = arith.subi %49, %43 : i32
// CHECK-NEXT:    %51 = arith.constant 8 : i32
// CHECK-NEXT:    %52 = arith.shli %50, %51 : i32
// CHECK-NEXT:    %53 = arith.constant 31 : i32
// CHECK-NEXT:    %54 = arith.ori %52, %53 : i32
// CHECK-NEXT:    %55 = math.ctlz %43 : i32
// CHECK-NEXT:    %56 = arith.constant 31 : i32
// CHECK-NEXT:    %57 = arith.subi %56, %55 : i32
// CHECK-NEXT:    cf.br ^bb9(%47, %45 : i32, f32)
// CHECK-NEXT:  ^bb9(%58: i32, %59: f32):
// CHECK-NEXT:    %60 = arith.cmpi slt, %58, %57 : i32
// CHECK-NEXT:    cf.cond_br %60, ^bb10, ^bb11
// CHECK-NEXT:  ^bb10:
// CHECK-NEXT:    %61 = arith.shli %48, %58 : i32
// CHECK-NEXT:    %62 = llvm.call_intrinsic "llvm.nvvm.shfl.sync.down.f32"(%46, %59, %61, %54) : (i32, f32, i32, i32) -> f32
// CHECK-NEXT:    %63 = arith.addf %59, %62 : f32
// CHECK-NEXT:    %64 = arith.addi %58, %48 : i32
// CHECK-NEXT:    cf.br ^bb9(%64, %63 : i32, f32)
// CHECK-NEXT:  ^bb11:
// CHECK-NEXT:    %65 = arith.cmpi eq, %1, %9 : i32
// CHECK-NEXT:    cf.cond_br %65, ^bb12, ^bb13
// CHECK-NEXT:  ^bb12:
// CHECK-NEXT:    %66 = llvm.getelementptr inbounds %3[%9] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
// CHECK-NEXT:    llvm.store %59, %66 : f32, !llvm.ptr<3>
// CHECK-NEXT:    cf.br ^bb13
// CHECK-NEXT:  ^bb13:
// CHECK-NEXT:    cf.br ^bb14
// CHECK-NEXT:  ^bb14:
// CHECK-NEXT:    %67 = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT:    llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.all"(%67) : (i32) -> ()
// CHECK-NEXT:    cf.br ^bb15
// CHECK-NEXT:  ^bb15:
// CHECK-NEXT:    cf.br ^bb27
// CHECK-NEXT:  ^bb16:
// CHECK-NEXT:    %68 = llvm.getelementptr inbounds %3[%1] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
// CHECK-NEXT:    llvm.store %0, %68 : f32, !llvm.ptr<3>
// CHECK-NEXT:    %69 = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT:    llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.all"(%69) : (i32) -> ()
// CHECK-NEXT:    %70 = arith.constant 0 : i32
// CHECK-NEXT:    %71 = arith.constant 1 : i32
// CHECK-NEXT:    %72 = arith.subi %2, %71 : i32
// CHECK-NEXT:    %73 = math.ctlz %72 : i32
// CHECK-NEXT:    %74 = arith.constant 32 : i32
// CHECK-NEXT:    %75 = arith.subi %74, %73 : i32
// CHECK-NEXT:    cf.br ^bb17(%70 : i32)
// CHECK-NEXT:  ^bb17(%76: i32):
// CHECK-NEXT:    %77 = arith.cmpi slt, %76, %75 : i32
// CHECK-NEXT:    cf.cond_br %77, ^bb18, ^bb26
// CHECK-NEXT:  ^bb18:
// CHECK-NEXT:    %78 = arith.subi %75, %71 : i32
// CHECK-NEXT:    %79 = arith.subi %78, %76 : i32
// CHECK-NEXT:    %80 = arith.shli %71, %79 : i32
// CHECK-NEXT:    %81 = arith.cmpi ult, %1, %80 : i32
// CHECK-NEXT:    cf.cond_br %81, ^bb19, ^bb25
// CHECK-NEXT:  ^bb19:
// CHECK-NEXT:    cf.br ^bb20(%70, %70, %2 : i32, i32, i32)
// CHECK-NEXT:  ^bb20(%82: i32, %83: i32, %84: i32):
// CHECK-NEXT:    %85 = arith.cmpi slt, %82, %79 : i32
// CHECK-NEXT:    cf.cond_br %85, ^bb21, ^bb22
// CHECK-NEXT:  ^bb21:
// CHECK-NEXT:    %86 = arith.addi %83, %84 : i32
// CHECK-NEXT:    %87 = arith.shrui %86, %71 : i32
// CHECK-NEXT:    %88 = arith.subi %79, %71 : i32
// CHECK-NEXT:    %89 = arith.subi %88, %82 : i32
// CHECK-NEXT:    %90 = arith.shrui %1, %89 : i32
// CHECK-NEXT:    %91 = arith.andi %90, %71 : i32
// CHECK-NEXT:    %92 = arith.cmpi ne, %91, %70 : i32
// CHECK-NEXT:    %93 = arith.select %92, %87, %83 : i32
// CHECK-NEXT:    %94 = arith.select %92, %84, %87 : i32
// CHECK-NEXT:    %95 = arith.addi %82, %71 : i32
// CHECK-NEXT:    cf.br ^bb20(%95, %93, %94 : i32, i32, i32)
// CHECK-NEXT:  ^bb22:
// CHECK-NEXT:    %96 = arith.subi %84, %83 : i32
// CHECK-NEXT:    %97 = arith.cmpi ugt, %96, %71 : i32
// CHECK-NEXT:    cf.cond_br %97, ^bb23, ^bb24
// CHECK-NEXT:  ^bb23:
// CHECK-NEXT:    %98 = arith.addi %83, %84 : i32
// CHECK-NEXT:    %99 = arith.shrui %98, %71 : i32
// CHECK-NEXT:    %100 = llvm.getelementptr inbounds %3[%83] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
// CHECK-NEXT:    %101 = llvm.load %100 : !llvm.ptr<3> -> f32
// CHECK-NEXT:    %102 = llvm.getelementptr inbounds %3[%99] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
// CHECK-NEXT:    %103 = llvm.load %102 : !llvm.ptr<3> -> f32
// CHECK-NEXT:    %104 = arith.addf %101, %103 : f32
// CHECK-NEXT:    %105 = llvm.getelementptr inbounds %3[%83] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
// CHECK-NEXT:    llvm.store %104, %105 : f32, !llvm.ptr<3>
// CHECK-NEXT:    cf.br ^bb24
// CHECK-NEXT:  ^bb24:
// CHECK-NEXT:    cf.br ^bb25
// CHECK-NEXT:  ^bb25:
// CHECK-NEXT:    %106 = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT:    llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.all"(%106) : (i32) -> ()
// CHECK-NEXT:    %107 = arith.addi %76, %71 : i32
// CHECK-NEXT:    cf.br ^bb17(%107 : i32)
// CHECK-NEXT:  ^bb26:
// CHECK-NEXT:    cf.br ^bb27
// CHECK-NEXT:  ^bb27:
// CHECK-NEXT:    %108 = llvm.getelementptr inbounds %3[%4] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
// CHECK-NEXT:    %109 = llvm.load %108 : !llvm.ptr<3> -> f32
// CHECK-NEXT:    %110 = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT:    llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.all"(%110) : (i32) -> ()
// CHECK-NEXT:    func.return %109 : f32
// CHECK-NEXT:  }
// CHECK-NEXT:  func.func @__gpuir_workgroup_scan_min_i32(%0: i32) -> i32 {
// CHECK-NEXT:    %1 = llvm.call_intrinsic "llvm.nvvm.read.ptx.sreg.tid.x"() : () -> i32
// CHECK-NEXT:    %2 = llvm.call_intrinsic "llvm.nvvm.read.ptx.sreg.ntid.x"() : () -> i32
// CHECK-NEXT:    %3 = llvm.mlir.addressof @__gpuir_wg_scratch_i32 : !llvm.ptr<3>
// CHECK-NEXT:    %4 = arith.constant 0 : i32
// CHECK-NEXT:    %5 = arith.constant 32 : i32
// CHECK-NEXT:    %6 = arith.constant 31 : i32
// CHECK-NEXT:    %7 = arith.andi %1, %6 : i32
// CHECK-NEXT:    %8 = arith.constant 5 : i32
// CHECK-NEXT:    %9 = arith.shrui %1, %8 : i32
// CHECK-NEXT:    %10 = arith.subi %1, %7 : i32
// CHECK-NEXT:    %11 = arith.subi %2, %10 : i32
// CHECK-NEXT:    %12 = arith.minui %11, %5 : i32
// CHECK-NEXT:    %13 = arith.subi %5, %12 : i32
// CHECK-NEXT:    %14 = arith.constant -1 : i32
// CHECK-NEXT:    %15 = arith.shrui %14, %13 : i32
// CHECK-NEXT:    %16 = arith.constant 1 : i32
// CHECK-NEXT:    %17 = arith.constant 5 : i32
// CHECK-NEXT:    cf.br ^bb1(%4, %0 : i32, i32)
// CHECK-NEXT:  ^bb1(%18: i32, %19: i32):
// CHECK-NEXT:    %20 = arith.cmpi slt, %18, %17 : i32
// CHECK-NEXT:    cf.cond_br %20, ^bb2, ^bb3
// CHECK-NEXT:  ^bb2:
// CHECK-NEXT:    %21 = arith.shli %16, %18 : i32
// CHECK-NEXT:    %22 = llvm.call_intrinsic "llvm.nvvm.shfl.sync.up.i32"(%15, %19, %21, %4) : (i32, i32, i32, i32) -> i32
// CHECK-NEXT:    %23 = arith.cmpi uge, %7, %21 : i32
// CHECK-NEXT:    %24 = arith.minsi %22, %19 : i32
// CHECK-NEXT:    %25 = arith.select %23, %24, %19 : i32
// CHECK-NEXT:    %26 = arith.addi %18, %16 : i32
// CHECK-NEXT:    cf.br ^bb1(%26, %25 : i32, i32)
// CHECK-NEXT:  ^bb3:
// CHECK-NEXT:    %27 = arith.subi %12, %16 : i32
// CHECK-NEXT:    %28 = arith.cmpi eq, %7, %27 : i32
// CHECK-NEXT:    cf.cond_br %28, ^bb4, ^bb5
// CHECK-NEXT:  ^bb4:
// CHECK-NEXT:    %29 = llvm.getelementptr inbounds %3[%9] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i32
// CHECK-NEXT:    llvm.store %19, %29 : i32, !llvm.ptr<3>
// CHECK-NEXT:    cf.br ^bb5
// CHECK-NEXT:  ^bb5:
// CHECK-NEXT:    %30 = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT:    llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.all"(%30) : (i32) -> ()
// CHECK-NEXT:    %31 = arith.cmpi eq, %1, %4 : i32
// CHECK-NEXT:    cf.cond_br %31, ^bb6, ^bb10
// CHECK-NEXT:  ^bb6:
// CHECK-NEXT:    %32 = arith.constant 31 : i32
// CHECK-NEXT:    %33 = arith.addi %2, %32 : i32
// CHECK-NEXT:    %34 = arith.constant 5 : i32
// CHECK-NEXT:    %35 = arith.shrui %33, %34 : i32
// CHECK-NEXT:    %36 = arith.constant 0 : i32
// CHECK-NEXT:    %37 = arith.constant 1 : i32
// CHECK-NEXT:    %38 = llvm.getelementptr inbounds %3[%36] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i32
// CHECK-NEXT:    %39 = llvm.load %38 : !llvm.ptr<3> -> i32
// CHECK-NEXT:    cf.br ^bb7(%37, %39 : i32, i32)
// CHECK-NEXT:  ^bb7(%40: i32, %41: i32):
// CHECK-NEXT:    %42 = arith.cmpi slt, %40, %35 : i32
// CHECK-NEXT:    cf.cond_br %42, ^bb8, ^bb9
// CHECK-NEXT:  ^bb8:
// CHECK-NEXT:    %43 = llvm.getelementptr inbounds %3[%40] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i32
// CHECK-NEXT:    %44 = llvm.load %43 : !llvm.ptr<3> -> i32
// CHECK-NEXT:    %45 = arith.minsi %41, %44 : i32
// CHECK-NEXT:    %46 = llvm.getelementptr inbounds %3[%40] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i32
// CHECK-NEXT:    llvm.store %45, %46 : i32, !llvm.ptr<3>
// CHECK-NEXT:    %47 = arith.addi %40, %37 : i32
// CHECK-NEXT:    cf.br ^bb7(%47, %45 : i32, i32)
// CHECK-NEXT:  ^bb9:
// CHECK-NEXT:    cf.br ^bb10
// CHECK-NEXT:  ^bb10:
// CHECK-NEXT:    %48 = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT:    llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.all"(%48) : (i32) -> ()
// CHECK-NEXT:    %49 = arith.cmpi ne, %9, %4 : i32
// CHECK-NEXT:    cf.cond_br %49, ^bb11, ^bb12
// CHECK-NEXT:  ^bb11:
// CHECK-NEXT:    %50 = arith.constant 1 : i32
// CHECK-NEXT:    %51 = arith.subi %9, %50 : i32
// CHECK-NEXT:    %52 = llvm.getelementptr inbounds %3[%51] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i32
// CHECK-NEXT:    %53 = llvm.load %52 : !llvm.ptr<3> -> i32
// CHECK-NEXT:    %54 = arith.minsi %53, %19 : i32
// CHECK-NEXT:    cf.br ^bb13(%54 : i32)
// CHECK-NEXT:  ^bb12:
// CHECK-NEXT:    cf.br ^bb13(%19 : i32)
// CHECK-NEXT:  ^bb13(%55: i32):
// CHECK-NEXT:    cf.br ^bb14
// CHECK-NEXT:  ^bb14:
// CHECK-NEXT:    %56 = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT:    llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.all"(%56) : (i32) -> ()
// CHECK-NEXT:    func.return %55 : i32
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
// LLVM:        %[[N:.*]] = llvm.call_intrinsic "llvm.nvvm.read.ptx.sreg.ntid.x"
// LLVM:        %[[BELOW:.*]] = llvm.sub %[[N]], %{{.*}} : i32
// LLVM-NEXT:   %[[BITS:.*]] = llvm.and %[[N]], %[[BELOW]] : i32
// LLVM-NEXT:   %[[POW2:.*]] = llvm.icmp "eq" %[[BITS]], %{{.*}} : i32
// LLVM-NEXT:   llvm.cond_br %[[POW2]], ^bb1, ^[[TREE:bb[0-9]+]]
// LLVM:        llvm.call_intrinsic "llvm.umin.i32"(%[[N]], %{{.*}}) : (i32, i32) -> i32
// LLVM:        llvm.call_intrinsic "llvm.nvvm.shfl.sync.down.f32"
// LLVM:        llvm.store %{{.*}} : f32, !llvm.ptr<3>
// LLVM:        llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.all"
// LLVM-NEXT:   llvm.icmp "ugt" %[[N]], %{{.*}} : i32
// LLVM:        llvm.load %{{.*}} : !llvm.ptr<3> -> f32
// LLVM:        llvm.call_intrinsic "llvm.nvvm.shfl.sync.down.f32"(%{{.*}}) : (i32, f32, i32, i32) -> f32
// LLVM:        llvm.store %{{.*}} : f32, !llvm.ptr<3>
// LLVM:        llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.all"
// LLVM:      ^[[TREE]]:
// LLVM-NEXT:   llvm.getelementptr
// LLVM-NEXT:   llvm.store %0, %{{.*}} : f32, !llvm.ptr<3>
// LLVM-NEXT:   %{{.*}} = llvm.mlir.constant(0 : i32) : i32
// LLVM-NEXT:   llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.all"
// LLVM:        llvm.call_intrinsic "llvm.ctlz.i32"
// LLVM:        llvm.cond_br
// LLVM:        llvm.fadd
// LLVM:        llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.all"
// LLVM-NEXT:   %{{.*}} = llvm.add
// LLVM-NEXT:   llvm.br ^bb
// LLVM:        llvm.load
// LLVM-NEXT:   %{{.*}} = llvm.mlir.constant(0 : i32) : i32
// LLVM-NEXT:   llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.all"
// LLVM-NEXT:   llvm.return
// LLVM:      llvm.func internal @__gpuir_workgroup_scan_min_i32(
// LLVM:        llvm.call_intrinsic "llvm.nvvm.shfl.sync.up.i32"
// LLVM:        llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.all"
// LLVM:        llvm.call_intrinsic "llvm.smin.i32"
// LLVM:        llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.all"
// LLVM:        llvm.call_intrinsic "llvm.smin.i32"
// LLVM:        llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.all"
// LLVM-NEXT:   llvm.return

// -----

// Types other than f32 are shuffled as 32-bit words of their bits: an f64 as two (the high word
// shifted down by 32, rebuilt with a shift and an or), an i8 / f16 zero-extended to one.
builtin.module attributes {gpu.device} {
  func.func @k(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
               %group: index, %item: index, %d: f64, %b: i8, %h: f16)
      -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) attributes {gpu.kernel} {
    %a1, %a3, %r = gpu.workgroup_reduce "max" %m1, %m3, %d : f64
    %b1, %b3, %s = gpu.workgroup_reduce "xor" %a1, %a3, %b : i8
    %c1, %c3, %t = gpu.workgroup_reduce "min" %b1, %b3, %h : f16
    func.return %c1, %c3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
  }
}

// CHECK-LABEL: func.func @__gpuir_workgroup_reduce_max_f64(%0: f64) -> f64 {
// CHECK:         %[[MASK:.*]] = arith.shrui %{{.*}}, %{{.*}} : i32
// CHECK:         %[[ONE:.*]] = arith.constant 1 : i32
// CHECK:         %[[CLAMP:.*]] = arith.ori %{{.*}}, %{{.*}} : i32
// CHECK-NEXT:    %[[ZEROS:.*]] = math.ctlz %[[WIDTH:.*]] : i32
// CHECK-NEXT:    %[[C31:.*]] = arith.constant 31 : i32
// CHECK-NEXT:    %[[LEVELS:.*]] = arith.subi %[[C31]], %[[ZEROS]] : i32
// CHECK-NEXT:    cf.br ^[[HEAD:bb[0-9]+]](%{{.*}}, %0 : i32, f64)
// CHECK-NEXT:  ^[[HEAD]](%[[K:.*]]: i32, %[[OWN:.*]]: f64):
// CHECK-NEXT:    %{{.*}} = arith.cmpi slt, %[[K]], %[[LEVELS]] : i32
// CHECK-NEXT:    cf.cond_br
// CHECK-NEXT:  ^bb{{.*}}:
// CHECK-NEXT:    %[[OFFSET:.*]] = arith.shli %[[ONE]], %[[K]] : i32
// CHECK-NEXT:    %[[BITS:.*]] = arith.bitcast %[[OWN]] : f64 to i64
// CHECK-NEXT:    %[[LOW:.*]] = arith.trunci %[[BITS]] : i64 to i32
// CHECK-NEXT:    %[[GOT_LOW:.*]] = llvm.call_intrinsic "llvm.nvvm.shfl.sync.down.i32"(%[[MASK]], %[[LOW]], %[[OFFSET]], %[[CLAMP]]) : (i32, i32, i32, i32) -> i32
// CHECK-NEXT:    %[[WIDE_LOW:.*]] = arith.extui %[[GOT_LOW]] : i32 to i64
// CHECK-NEXT:    %[[C32:.*]] = arith.constant 32 : i64
// CHECK-NEXT:    %[[SHIFTED:.*]] = arith.shrui %[[BITS]], %[[C32]] : i64
// CHECK-NEXT:    %[[HIGH:.*]] = arith.trunci %[[SHIFTED]] : i64 to i32
// CHECK-NEXT:    %[[GOT_HIGH:.*]] = llvm.call_intrinsic "llvm.nvvm.shfl.sync.down.i32"(%[[MASK]], %[[HIGH]], %[[OFFSET]], %[[CLAMP]]) : (i32, i32, i32, i32) -> i32
// CHECK-NEXT:    %[[WIDE_HIGH:.*]] = arith.extui %[[GOT_HIGH]] : i32 to i64
// CHECK-NEXT:    %[[C32_2:.*]] = arith.constant 32 : i64
// CHECK-NEXT:    %[[UP:.*]] = arith.shli %[[WIDE_HIGH]], %[[C32_2]] : i64
// CHECK-NEXT:    %[[JOINED:.*]] = arith.ori %[[WIDE_LOW]], %[[UP]] : i64
// CHECK-NEXT:    %[[OTHER:.*]] = arith.bitcast %[[JOINED]] : i64 to f64
// CHECK-NEXT:    %[[MAX:.*]] = arith.maximumf %[[OWN]], %[[OTHER]] : f64
// CHECK-NEXT:    %[[NEXT:.*]] = arith.addi %[[K]], %[[ONE]] : i32
// CHECK-NEXT:    cf.br ^[[HEAD]](%[[NEXT]], %[[MAX]] : i32, f64)
// CHECK-NOT:     llvm.call_intrinsic "llvm.nvvm.shfl.sync.down.i32"
// CHECK:         llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.all"
// CHECK-COUNT-2: llvm.call_intrinsic "llvm.nvvm.shfl.sync.down.i32"
// CHECK-NOT:     llvm.call_intrinsic "llvm.nvvm.shfl.sync.down.i32"
// CHECK:         func.return

// CHECK-LABEL: func.func @__gpuir_workgroup_reduce_xor_i8(%0: i8) -> i8 {
// CHECK:       ^bb{{.*}}(%{{.*}}: i32, %[[OWN:.*]]: i8):
// CHECK:         %[[WORD:.*]] = arith.extui %[[OWN]] : i8 to i32
// CHECK-NEXT:    %[[GOT:.*]] = llvm.call_intrinsic "llvm.nvvm.shfl.sync.down.i32"(%{{.*}}, %[[WORD]], %{{.*}}, %{{.*}}) : (i32, i32, i32, i32) -> i32
// CHECK-NEXT:    %[[OTHER:.*]] = arith.trunci %[[GOT]] : i32 to i8
// CHECK-NEXT:    %{{.*}} = arith.xori %[[OWN]], %[[OTHER]] : i8

// CHECK-LABEL: func.func @__gpuir_workgroup_reduce_min_f16(%0: f16) -> f16 {
// CHECK:       ^bb{{.*}}(%{{.*}}: i32, %[[OWN:.*]]: f16):
// CHECK:         %[[BITS:.*]] = arith.bitcast %[[OWN]] : f16 to i16
// CHECK-NEXT:    %[[WORD:.*]] = arith.extui %[[BITS]] : i16 to i32
// CHECK-NEXT:    %[[GOT:.*]] = llvm.call_intrinsic "llvm.nvvm.shfl.sync.down.i32"(%{{.*}}, %[[WORD]], %{{.*}}, %{{.*}}) : (i32, i32, i32, i32) -> i32
// CHECK-NEXT:    %[[NARROW:.*]] = arith.trunci %[[GOT]] : i32 to i16
// CHECK-NEXT:    %[[OTHER:.*]] = arith.bitcast %[[NARROW]] : i16 to f16
// CHECK-NEXT:    %{{.*}} = arith.minimumf %[[OWN]], %[[OTHER]] : f16

// LLVM-LABEL: llvm.func internal @__gpuir_workgroup_reduce_max_f64(
// LLVM:         llvm.bitcast %{{.*}} : f64 to i64
// LLVM-NEXT:    llvm.trunc %{{.*}} : i64 to i32
// LLVM-NEXT:    llvm.call_intrinsic "llvm.nvvm.shfl.sync.down.i32"
