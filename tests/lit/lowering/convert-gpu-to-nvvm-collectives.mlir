// RUN: gpu-opt %s -p convert-gpu-to-nvvm --split-input-file | filecheck %s
// RUN: gpu-opt %s -p device-to-llvm --split-input-file | filecheck %s --check-prefix=LLVM

// A collective becomes a call of a function made for its kind and type; its tokens pass through.
// The function works in a static shared array of 1024 elements per element type, with barriers.
// Reduce branches on whether n = %ntid.x is a power of two (n & (n - 1) == 0).
// Yes: warp shuffles. width = min(n, 32) lanes, member mask 0xffffffff >> (32 - width), clamp
// ((32 - width) << 8) | 31; for o = 1, 2, 4, 8, 16 while o < width (the same in the whole warp):
// own = own + shfl.down(own, o), the lower item on the left; lane 0 of each warp stores it at
// scratch[item >> 5]; a barrier. If n > 32, warp 0 loads scratch[lane] and does the same over
// the n >> 5 partials (full mask), item 0 stores the result at scratch[0]; a barrier.
// No: every item stores its value at scratch[item]; one barrier; then one level of the fixed
// tree per barrier, deepest first (ceil(log2 n) = 32 - ctlz(n - 1) levels): item j < 2^d walks
// from [0, n) along the d bits of j to its node [lo, hi) and, when hi - lo > 1, does
// scratch[lo] = scratch[lo] + scratch[(lo + hi) >> 1].
// Both: everyone reads scratch[0]; a barrier.
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
// CHECK-NEXT:    %4 = arith.constant 0 : i32
// CHECK-NEXT:    %5 = arith.constant 1 : i32
// CHECK-NEXT:    %6 = arith.subi %2, %5 : i32
// CHECK-NEXT:    %7 = arith.andi %2, %6 : i32
// CHECK-NEXT:    %8 = arith.cmpi eq, %7, %4 : i32
// CHECK-NEXT:    cf.cond_br %8, ^bb1, ^bb50
// CHECK-NEXT:  ^bb1:
// CHECK-NEXT:    %9 = arith.constant 0 : i32
// CHECK-NEXT:    %10 = arith.constant 32 : i32
// CHECK-NEXT:    %11 = arith.minui %2, %10 : i32
// CHECK-NEXT:    %12 = arith.subi %10, %11 : i32
// CHECK-NEXT:    %13 = arith.constant -1 : i32
// CHECK-NEXT:    %14 = arith.shrui %13, %12 : i32
// CHECK-NEXT:    %15 = arith.constant 32 : i32
// CHECK-NEXT:    %16 = arith.subi %15, %11 : i32
// CHECK-NEXT:    %17 = arith.constant 8 : i32
// CHECK-NEXT:    %18 = arith.shli %16, %17 : i32
// CHECK-NEXT:    %19 = arith.constant 31 : i32
// CHECK-NEXT:    %20 = arith.ori %18, %19 : i32
// CHECK-NEXT:    %21 = arith.constant 1 : i32
// CHECK-NEXT:    %22 = arith.cmpi ult, %21, %11 : i32
// CHECK-NEXT:    cf.cond_br %22, ^bb2, ^bb3
// CHECK-NEXT:  ^bb2:
// CHECK-NEXT:    %23 = llvm.call_intrinsic "llvm.nvvm.shfl.sync.down.f32"(%14, %0, %21, %20) : (i32, f32, i32, i32) -> f32
// CHECK-NEXT:    %24 = arith.addf %0, %23 : f32
// CHECK-NEXT:    cf.br ^bb4(%24 : f32)
// CHECK-NEXT:  ^bb3:
// CHECK-NEXT:    cf.br ^bb4(%0 : f32)
// CHECK-NEXT:  ^bb4(%25: f32):
// CHECK-NEXT:    cf.br ^bb5
// CHECK-NEXT:  ^bb5:
// CHECK-NEXT:    %26 = arith.constant 2 : i32
// CHECK-NEXT:    %27 = arith.cmpi ult, %26, %11 : i32
// CHECK-NEXT:    cf.cond_br %27, ^bb6, ^bb7
// CHECK-NEXT:  ^bb6:
// CHECK-NEXT:    %28 = llvm.call_intrinsic "llvm.nvvm.shfl.sync.down.f32"(%14, %25, %26, %20) : (i32, f32, i32, i32) -> f32
// CHECK-NEXT:    %29 = arith.addf %25, %28 : f32
// CHECK-NEXT:    cf.br ^bb8(%29 : f32)
// CHECK-NEXT:  ^bb7:
// CHECK-NEXT:    cf.br ^bb8(%25 : f32)
// CHECK-NEXT:  ^bb8(%30: f32):
// CHECK-NEXT:    cf.br ^bb9
// CHECK-NEXT:  ^bb9:
// CHECK-NEXT:    %31 = arith.constant 4 : i32
// CHECK-NEXT:    %32 = arith.cmpi ult, %31, %11 : i32
// CHECK-NEXT:    cf.cond_br %32, ^bb10, ^bb11
// CHECK-NEXT:  ^bb10:
// CHECK-NEXT:    %33 = llvm.call_intrinsic "llvm.nvvm.shfl.sync.down.f32"(%14, %30, %31, %20) : (i32, f32, i32, i32) -> f32
// CHECK-NEXT:    %34 = arith.addf %30, %33 : f32
// CHECK-NEXT:    cf.br ^bb12(%34 : f32)
// CHECK-NEXT:  ^bb11:
// CHECK-NEXT:    cf.br ^bb12(%30 : f32)
// CHECK-NEXT:  ^bb12(%35: f32):
// CHECK-NEXT:    cf.br ^bb13
// CHECK-NEXT:  ^bb13:
// CHECK-NEXT:    %36 = arith.constant 8 : i32
// CHECK-NEXT:    %37 = arith.cmpi ult, %36, %11 : i32
// CHECK-NEXT:    cf.cond_br %37, ^bb14, ^bb15
// CHECK-NEXT:  ^bb14:
// CHECK-NEXT:    %38 = llvm.call_intrinsic "llvm.nvvm.shfl.sync.down.f32"(%14, %35, %36, %20) : (i32, f32, i32, i32) -> f32
// CHECK-NEXT:    %39 = arith.addf %35, %38 : f32
// CHECK-NEXT:    cf.br ^bb16(%39 : f32)
// CHECK-NEXT:  ^bb15:
// CHECK-NEXT:    cf.br ^bb16(%35 : f32)
// CHECK-NEXT:  ^bb16(%40: f32):
// CHECK-NEXT:    cf.br ^bb17
// CHECK-NEXT:  ^bb17:
// CHECK-NEXT:    %41 = arith.constant 16 : i32
// CHECK-NEXT:    %42 = arith.cmpi ult, %41, %11 : i32
// CHECK-NEXT:    cf.cond_br %42, ^bb18, ^bb19
// CHECK-NEXT:  ^bb18:
// CHECK-NEXT:    %43 = llvm.call_intrinsic "llvm.nvvm.shfl.sync.down.f32"(%14, %40, %41, %20) : (i32, f32, i32, i32) -> f32
// CHECK-NEXT:    %44 = arith.addf %40, %43 : f32
// CHECK-NEXT:    cf.br ^bb20(%44 : f32)
// CHECK-NEXT:  ^bb19:
// CHECK-NEXT:    cf.br ^bb20(%40 : f32)
// CHECK-NEXT:  ^bb20(%45: f32):
// CHECK-NEXT:    cf.br ^bb21
// CHECK-NEXT:  ^bb21:
// CHECK-NEXT:    %46 = arith.constant 31 : i32
// CHECK-NEXT:    %47 = arith.andi %1, %46 : i32
// CHECK-NEXT:    %48 = arith.cmpi eq, %47, %9 : i32
// CHECK-NEXT:    %49 = arith.constant 5 : i32
// CHECK-NEXT:    %50 = arith.shrui %1, %49 : i32
// CHECK-NEXT:    cf.cond_br %48, ^bb22, ^bb23
// CHECK-NEXT:  ^bb22:
// CHECK-NEXT:    %51 = llvm.getelementptr inbounds %3[%50] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
// CHECK-NEXT:    llvm.store %45, %51 : f32, !llvm.ptr<3>
// CHECK-NEXT:    cf.br ^bb23
// CHECK-NEXT:  ^bb23:
// CHECK-NEXT:    %52 = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT:    llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.all"(%52) : (i32) -> ()
// CHECK-NEXT:    %53 = arith.cmpi ugt, %2, %10 : i32
// CHECK-NEXT:    cf.cond_br %53, ^bb24, ^bb49
// CHECK-NEXT:  ^bb24:
// CHECK-NEXT:    %54 = arith.cmpi ult, %1, %10 : i32
// CHECK-NEXT:    cf.cond_br %54, ^bb25, ^bb48
// CHECK-NEXT:  ^bb25:
// CHECK-NEXT:    %55 = arith.constant 5 : i32
// CHECK-NEXT:    %56 = arith.shrui %2, %55 : i32
// CHECK-NEXT:    %57 = llvm.getelementptr inbounds %3[%1] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
// CHECK-NEXT:    %58 = llvm.load %57 : !llvm.ptr<3> -> f32
// CHECK-NEXT:    %59 = arith.constant -1 : i32
// CHECK-NEXT:    %60 = arith.constant 32 : i32
// CHECK-NEXT:    %61 = arith.subi %60, %56 : i32
// CHECK-NEXT:    %62 = arith.constant 8 : i32
// CHECK-NEXT:    %63 = arith.shli %61, %62 : i32
// CHECK-NEXT:    %64 = arith.constant 31 : i32
// CHECK-NEXT:    %65 = arith.ori %63, %64 : i32
// CHECK-NEXT:    %66 = arith.constant 1 : i32
// CHECK-NEXT:    %67 = arith.cmpi ult, %66, %56 : i32
// CHECK-NEXT:    cf.cond_br %67, ^bb26, ^bb27
// CHECK-NEXT:  ^bb26:
// CHECK-NEXT:    %68 = llvm.call_intrinsic "llvm.nvvm.shfl.sync.down.f32"(%59, %58, %66, %65) : (i32, f32, i32, i32) -> f32
// CHECK-NEXT:    %69 = arith.addf %58, %68 : f32
// CHECK-NEXT:    cf.br ^bb28(%69 : f32)
// CHECK-NEXT:  ^bb27:
// CHECK-NEXT:    cf.br ^bb28(%58 : f32)
// CHECK-NEXT:  ^bb28(%70: f32):
// CHECK-NEXT:    cf.br ^bb29
// CHECK-NEXT:  ^bb29:
// CHECK-NEXT:    %71 = arith.constant 2 : i32
// CHECK-NEXT:    %72 = arith.cmpi ult, %71, %56 : i32
// CHECK-NEXT:    cf.cond_br %72, ^bb30, ^bb31
// CHECK-NEXT:  ^bb30:
// CHECK-NEXT:    %73 = llvm.call_intrinsic "llvm.nvvm.shfl.sync.down.f32"(%59, %70, %71, %65) : (i32, f32, i32, i32) -> f32
// CHECK-NEXT:    %74 = arith.addf %70, %73 : f32
// CHECK-NEXT:    cf.br ^bb32(%74 : f32)
// CHECK-NEXT:  ^bb31:
// CHECK-NEXT:    cf.br ^bb32(%70 : f32)
// CHECK-NEXT:  ^bb32(%75: f32):
// CHECK-NEXT:    cf.br ^bb33
// CHECK-NEXT:  ^bb33:
// CHECK-NEXT:    %76 = arith.constant 4 : i32
// CHECK-NEXT:    %77 = arith.cmpi ult, %76, %56 : i32
// CHECK-NEXT:    cf.cond_br %77, ^bb34, ^bb35
// CHECK-NEXT:  ^bb34:
// CHECK-NEXT:    %78 = llvm.call_intrinsic "llvm.nvvm.shfl.sync.down.f32"(%59, %75, %76, %65) : (i32, f32, i32, i32) -> f32
// CHECK-NEXT:    %79 = arith.addf %75, %78 : f32
// CHECK-NEXT:    cf.br ^bb36(%79 : f32)
// CHECK-NEXT:  ^bb35:
// CHECK-NEXT:    cf.br ^bb36(%75 : f32)
// CHECK-NEXT:  ^bb36(%80: f32):
// CHECK-NEXT:    cf.br ^bb37
// CHECK-NEXT:  ^bb37:
// CHECK-NEXT:    %81 = arith.constant 8 : i32
// CHECK-NEXT:    %82 = arith.cmpi ult, %81, %56 : i32
// CHECK-NEXT:    cf.cond_br %82, ^bb38, ^bb39
// CHECK-NEXT:  ^bb38:
// CHECK-NEXT:    %83 = llvm.call_intrinsic "llvm.nvvm.shfl.sync.down.f32"(%59, %80, %81, %65) : (i32, f32, i32, i32) -> f32
// CHECK-NEXT:    %84 = arith.addf %80, %83 : f32
// CHECK-NEXT:    cf.br ^bb40(%84 : f32)
// CHECK-NEXT:  ^bb39:
// CHECK-NEXT:    cf.br ^bb40(%80 : f32)
// CHECK-NEXT:  ^bb40(%85: f32):
// CHECK-NEXT:    cf.br ^bb41
// CHECK-NEXT:  ^bb41:
// CHECK-NEXT:    %86 = arith.constant 16 : i32
// CHECK-NEXT:    %87 = arith.cmpi ult, %86, %56 : i32
// CHECK-NEXT:    cf.cond_br %87, ^bb42, ^bb43
// CHECK-NEXT:  ^bb42:
// CHECK-NEXT:    %88 = llvm.call_intrinsic "llvm.nvvm.shfl.sync.down.f32"(%59, %85, %86, %65) : (i32, f32, i32, i32) -> f32
// CHECK-NEXT:    %89 = arith.addf %85, %88 : f32
// CHECK-NEXT:    cf.br ^bb44(%89 : f32)
// CHECK-NEXT:  ^bb43:
// CHECK-NEXT:    cf.br ^bb44(%85 : f32)
// CHECK-NEXT:  ^bb44(%90: f32):
// CHECK-NEXT:    cf.br ^bb45
// CHECK-NEXT:  ^bb45:
// CHECK-NEXT:    %91 = arith.cmpi eq, %1, %9 : i32
// CHECK-NEXT:    cf.cond_br %91, ^bb46, ^bb47
// CHECK-NEXT:  ^bb46:
// CHECK-NEXT:    %92 = llvm.getelementptr inbounds %3[%9] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
// CHECK-NEXT:    llvm.store %90, %92 : f32, !llvm.ptr<3>
// CHECK-NEXT:    cf.br ^bb47
// CHECK-NEXT:  ^bb47:
// CHECK-NEXT:    cf.br ^bb48
// CHECK-NEXT:  ^bb48:
// CHECK-NEXT:    %93 = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT:    llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.all"(%93) : (i32) -> ()
// CHECK-NEXT:    cf.br ^bb49
// CHECK-NEXT:  ^bb49:
// CHECK-NEXT:    cf.br ^bb61
// CHECK-NEXT:  ^bb50:
// CHECK-NEXT:    %94 = llvm.getelementptr inbounds %3[%1] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
// CHECK-NEXT:    llvm.store %0, %94 : f32, !llvm.ptr<3>
// CHECK-NEXT:    %95 = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT:    llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.all"(%95) : (i32) -> ()
// CHECK-NEXT:    %96 = arith.constant 0 : i32
// CHECK-NEXT:    %97 = arith.constant 1 : i32
// CHECK-NEXT:    %98 = arith.subi %2, %97 : i32
// CHECK-NEXT:    %99 = math.ctlz %98 : i32
// CHECK-NEXT:    %100 = arith.constant 32 : i32
// CHECK-NEXT:    %101 = arith.subi %100, %99 : i32
// CHECK-NEXT:    cf.br ^bb51(%96 : i32)
// CHECK-NEXT:  ^bb51(%102: i32):
// CHECK-NEXT:    %103 = arith.cmpi slt, %102, %101 : i32
// CHECK-NEXT:    cf.cond_br %103, ^bb52, ^bb60
// CHECK-NEXT:  ^bb52:
// CHECK-NEXT:    %104 = arith.subi %101, %97 : i32
// CHECK-NEXT:    %105 = arith.subi %104, %102 : i32
// CHECK-NEXT:    %106 = arith.shli %97, %105 : i32
// CHECK-NEXT:    %107 = arith.cmpi ult, %1, %106 : i32
// CHECK-NEXT:    cf.cond_br %107, ^bb53, ^bb59
// CHECK-NEXT:  ^bb53:
// CHECK-NEXT:    cf.br ^bb54(%96, %96, %2 : i32, i32, i32)
// CHECK-NEXT:  ^bb54(%108: i32, %109: i32, %110: i32):
// CHECK-NEXT:    %111 = arith.cmpi slt, %108, %105 : i32
// CHECK-NEXT:    cf.cond_br %111, ^bb55, ^bb56
// CHECK-NEXT:  ^bb55:
// CHECK-NEXT:    %112 = arith.addi %109, %110 : i32
// CHECK-NEXT:    %113 = arith.shrui %112, %97 : i32
// CHECK-NEXT:    %114 = arith.subi %105, %97 : i32
// CHECK-NEXT:    %115 = arith.subi %114, %108 : i32
// CHECK-NEXT:    %116 = arith.shrui %1, %115 : i32
// CHECK-NEXT:    %117 = arith.andi %116, %97 : i32
// CHECK-NEXT:    %118 = arith.cmpi ne, %117, %96 : i32
// CHECK-NEXT:    %119 = arith.select %118, %113, %109 : i32
// CHECK-NEXT:    %120 = arith.select %118, %110, %113 : i32
// CHECK-NEXT:    %121 = arith.addi %108, %97 : i32
// CHECK-NEXT:    cf.br ^bb54(%121, %119, %120 : i32, i32, i32)
// CHECK-NEXT:  ^bb56:
// CHECK-NEXT:    %122 = arith.subi %110, %109 : i32
// CHECK-NEXT:    %123 = arith.cmpi ugt, %122, %97 : i32
// CHECK-NEXT:    cf.cond_br %123, ^bb57, ^bb58
// CHECK-NEXT:  ^bb57:
// CHECK-NEXT:    %124 = arith.addi %109, %110 : i32
// CHECK-NEXT:    %125 = arith.shrui %124, %97 : i32
// CHECK-NEXT:    %126 = llvm.getelementptr inbounds %3[%109] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
// CHECK-NEXT:    %127 = llvm.load %126 : !llvm.ptr<3> -> f32
// CHECK-NEXT:    %128 = llvm.getelementptr inbounds %3[%125] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
// CHECK-NEXT:    %129 = llvm.load %128 : !llvm.ptr<3> -> f32
// CHECK-NEXT:    %130 = arith.addf %127, %129 : f32
// CHECK-NEXT:    %131 = llvm.getelementptr inbounds %3[%109] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
// CHECK-NEXT:    llvm.store %130, %131 : f32, !llvm.ptr<3>
// CHECK-NEXT:    cf.br ^bb58
// CHECK-NEXT:  ^bb58:
// CHECK-NEXT:    cf.br ^bb59
// CHECK-NEXT:  ^bb59:
// CHECK-NEXT:    %132 = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT:    llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.all"(%132) : (i32) -> ()
// CHECK-NEXT:    %133 = arith.addi %102, %97 : i32
// CHECK-NEXT:    cf.br ^bb51(%133 : i32)
// CHECK-NEXT:  ^bb60:
// CHECK-NEXT:    cf.br ^bb61
// CHECK-NEXT:  ^bb61:
// CHECK-NEXT:    %134 = llvm.getelementptr inbounds %3[%4] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
// CHECK-NEXT:    %135 = llvm.load %134 : !llvm.ptr<3> -> f32
// CHECK-NEXT:    %136 = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT:    llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.all"(%136) : (i32) -> ()
// CHECK-NEXT:    func.return %135 : f32
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
// LLVM:        %[[N:.*]] = llvm.call_intrinsic "llvm.nvvm.read.ptx.sreg.ntid.x"
// LLVM:        %[[BELOW:.*]] = llvm.sub %[[N]], %{{.*}} : i32
// LLVM-NEXT:   %[[BITS:.*]] = llvm.and %[[N]], %[[BELOW]] : i32
// LLVM-NEXT:   %[[POW2:.*]] = llvm.icmp "eq" %[[BITS]], %{{.*}} : i32
// LLVM-NEXT:   llvm.cond_br %[[POW2]], ^bb1, ^[[TREE:bb[0-9]+]]
// LLVM:        llvm.call_intrinsic "llvm.umin.i32"(%[[N]], %{{.*}}) : (i32, i32) -> i32
// LLVM-COUNT-5: llvm.call_intrinsic "llvm.nvvm.shfl.sync.down.f32"
// LLVM:        llvm.store %{{.*}} : f32, !llvm.ptr<3>
// LLVM:        llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.all"
// LLVM-NEXT:   llvm.icmp "ugt" %[[N]], %{{.*}} : i32
// LLVM:        llvm.load %{{.*}} : !llvm.ptr<3> -> f32
// LLVM-COUNT-5: llvm.call_intrinsic "llvm.nvvm.shfl.sync.down.f32"(%{{.*}}) : (i32, f32, i32, i32) -> f32
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
// LLVM-NOT:    shfl
// LLVM:        llvm.call_intrinsic "llvm.smin.i32"
// LLVM:        llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.all"
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
// CHECK:         %[[CLAMP:.*]] = arith.ori %{{.*}}, %{{.*}} : i32
// CHECK:         %[[ONE:.*]] = arith.constant 1 : i32
// CHECK-NEXT:    arith.cmpi ult, %[[ONE]], %{{.*}} : i32
// CHECK-NEXT:    cf.cond_br
// CHECK-NEXT:  ^bb{{.*}}:
// CHECK-NEXT:    %[[BITS:.*]] = arith.bitcast %0 : f64 to i64
// CHECK-NEXT:    %[[LOW:.*]] = arith.trunci %[[BITS]] : i64 to i32
// CHECK-NEXT:    %[[GOT_LOW:.*]] = llvm.call_intrinsic "llvm.nvvm.shfl.sync.down.i32"(%[[MASK]], %[[LOW]], %[[ONE]], %[[CLAMP]]) : (i32, i32, i32, i32) -> i32
// CHECK-NEXT:    %[[WIDE_LOW:.*]] = arith.extui %[[GOT_LOW]] : i32 to i64
// CHECK-NEXT:    %[[C32:.*]] = arith.constant 32 : i64
// CHECK-NEXT:    %[[SHIFTED:.*]] = arith.shrui %[[BITS]], %[[C32]] : i64
// CHECK-NEXT:    %[[HIGH:.*]] = arith.trunci %[[SHIFTED]] : i64 to i32
// CHECK-NEXT:    %[[GOT_HIGH:.*]] = llvm.call_intrinsic "llvm.nvvm.shfl.sync.down.i32"(%[[MASK]], %[[HIGH]], %[[ONE]], %[[CLAMP]]) : (i32, i32, i32, i32) -> i32
// CHECK-NEXT:    %[[WIDE_HIGH:.*]] = arith.extui %[[GOT_HIGH]] : i32 to i64
// CHECK-NEXT:    %[[C32_2:.*]] = arith.constant 32 : i64
// CHECK-NEXT:    %[[UP:.*]] = arith.shli %[[WIDE_HIGH]], %[[C32_2]] : i64
// CHECK-NEXT:    %[[JOINED:.*]] = arith.ori %[[WIDE_LOW]], %[[UP]] : i64
// CHECK-NEXT:    %[[OTHER:.*]] = arith.bitcast %[[JOINED]] : i64 to f64
// CHECK-NEXT:    %{{.*}} = arith.maximumf %0, %[[OTHER]] : f64
// CHECK-COUNT-8: llvm.call_intrinsic "llvm.nvvm.shfl.sync.down.i32"
// CHECK-NOT:     llvm.call_intrinsic "llvm.nvvm.shfl.sync.down.i32"
// CHECK:         llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.all"
// CHECK-COUNT-10: llvm.call_intrinsic "llvm.nvvm.shfl.sync.down.i32"
// CHECK-NOT:     llvm.call_intrinsic "llvm.nvvm.shfl.sync.down.i32"
// CHECK:         func.return

// CHECK-LABEL: func.func @__gpuir_workgroup_reduce_xor_i8(%0: i8) -> i8 {
// CHECK:         %[[WORD:.*]] = arith.extui %0 : i8 to i32
// CHECK-NEXT:    %[[GOT:.*]] = llvm.call_intrinsic "llvm.nvvm.shfl.sync.down.i32"(%{{.*}}, %[[WORD]], %{{.*}}, %{{.*}}) : (i32, i32, i32, i32) -> i32
// CHECK-NEXT:    %[[OTHER:.*]] = arith.trunci %[[GOT]] : i32 to i8
// CHECK-NEXT:    %{{.*}} = arith.xori %0, %[[OTHER]] : i8

// CHECK-LABEL: func.func @__gpuir_workgroup_reduce_min_f16(%0: f16) -> f16 {
// CHECK:         %[[BITS:.*]] = arith.bitcast %0 : f16 to i16
// CHECK-NEXT:    %[[WORD:.*]] = arith.extui %[[BITS]] : i16 to i32
// CHECK-NEXT:    %[[GOT:.*]] = llvm.call_intrinsic "llvm.nvvm.shfl.sync.down.i32"(%{{.*}}, %[[WORD]], %{{.*}}, %{{.*}}) : (i32, i32, i32, i32) -> i32
// CHECK-NEXT:    %[[NARROW:.*]] = arith.trunci %[[GOT]] : i32 to i16
// CHECK-NEXT:    %[[OTHER:.*]] = arith.bitcast %[[NARROW]] : i16 to f16
// CHECK-NEXT:    %{{.*}} = arith.minimumf %0, %[[OTHER]] : f16

// LLVM-LABEL: llvm.func internal @__gpuir_workgroup_reduce_max_f64(
// LLVM:         llvm.bitcast %{{.*}} : f64 to i64
// LLVM-NEXT:    llvm.trunc %{{.*}} : i64 to i32
// LLVM-NEXT:    llvm.call_intrinsic "llvm.nvvm.shfl.sync.down.i32"
