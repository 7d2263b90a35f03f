// RUN: gpu-opt %s -p convert-arith-to-llvm --split-input-file | filecheck %s
// RUN: gpu-opt %s -p convert-arith-to-llvm --split-input-file --mlir-pass-statistics -o /dev/null 2>&1 | filecheck %s --check-prefix=STATS

// The statistics of the whole file: the 51 arith ops below but the one nobody uses (an
// `arith.cmpi`, erased as dead, not lowered).
// STATS:      {{^}}ConvertArithToLlvm
// STATS-NEXT:   (S) 50 num-ops-lowered - Number of arith ops lowered to the llvm dialect

// Integer and float arithmetic, comparisons, select and constants map one to one; index is
// i64; overflow and fast-math flags are kept.
builtin.module attributes {gpu.device} {
  func.func @ops(%a: i32, %b: i32, %i: index, %x: f32, %y: f32) -> (i32, index, f32, i1, i1) {
    %c7 = arith.constant 7 : i32
    %c2 = arith.constant 2 : index
    %t = arith.constant true
    %h = arith.constant 0.5 : f32
    %0 = arith.addi %a, %c7 overflow<nsw> : i32
    %1 = arith.subi %0, %b : i32
    %2 = arith.muli %1, %b overflow<nsw, nuw> : i32
    %3 = arith.divsi %2, %b : i32
    %4 = arith.divui %3, %b : i32
    %5 = arith.remsi %4, %b : i32
    %6 = arith.remui %5, %b : i32
    %7 = arith.andi %6, %b : i32
    %8 = arith.ori %7, %b : i32
    %9 = arith.xori %8, %b : i32
    %10 = arith.shli %9, %b : i32
    %11 = arith.shrsi %10, %b : i32
    %12 = arith.shrui %11, %b : i32
    %13 = arith.muli %i, %c2 : index
    %14 = arith.addf %x, %h fastmath<fast> : f32
    %15 = arith.subf %14, %y : f32
    %16 = arith.mulf %15, %y : f32
    %17 = arith.divf %16, %y : f32
    %18 = arith.negf %17 : f32
    %19 = arith.cmpi slt, %a, %b : i32
    %20 = arith.cmpf olt, %x, %y : f32
    %21 = arith.select %t, %18, %x : f32
    %22 = arith.cmpi uge, %i, %13 : index
    func.return %12, %13, %21, %19, %20 : i32, index, f32, i1, i1
  }
}

// CHECK: builtin.module attributes {gpu.device} {
// CHECK-NEXT:   func.func @ops(%a: i32, %b: i32, %i: index, %x: f32, %y: f32) -> (i32, index, f32, i1, i1) {
// CHECK-NEXT:     %c7 = llvm.mlir.constant(7 : i32) : i32
// CHECK-NEXT:     %0 = llvm.mlir.constant(2) : i64
// CHECK-NEXT:     %c2 = builtin.unrealized_conversion_cast %0 : i64 to index
// CHECK-NEXT:     %t = llvm.mlir.constant(true) : i1
// CHECK-NEXT:     %h = llvm.mlir.constant(5.000000e-01 : f32) : f32
// CHECK-NEXT:     %1 = llvm.add %a, %c7 overflow<nsw> : i32
// CHECK-NEXT:     %2 = llvm.sub %1, %b : i32
// CHECK-NEXT:     %3 = llvm.mul %2, %b overflow<nsw,nuw> : i32
// CHECK-NEXT:     %4 = llvm.sdiv %3, %b : i32
// CHECK-NEXT:     %5 = llvm.udiv %4, %b : i32
// CHECK-NEXT:     %6 = llvm.srem %5, %b : i32
// CHECK-NEXT:     %7 = llvm.urem %6, %b : i32
// CHECK-NEXT:     %8 = llvm.and %7, %b : i32
// CHECK-NEXT:     %9 = llvm.or %8, %b : i32
// CHECK-NEXT:     %10 = llvm.xor %9, %b : i32
// CHECK-NEXT:     %11 = llvm.shl %10, %b : i32
// CHECK-NEXT:     %12 = llvm.ashr %11, %b : i32
// CHECK-NEXT:     %13 = llvm.lshr %12, %b : i32
// CHECK-NEXT:     %14 = builtin.unrealized_conversion_cast %i : index to i64
// CHECK-NEXT:     %15 = llvm.mul %14, %0 : i64
// CHECK-NEXT:     %16 = builtin.unrealized_conversion_cast %15 : i64 to index
// CHECK-NEXT:     %17 = llvm.fadd %x, %h {fastmathFlags = #llvm.fastmath<fast>} : f32
// CHECK-NEXT:     %18 = llvm.fsub %17, %y : f32
// CHECK-NEXT:     %19 = llvm.fmul %18, %y : f32
// CHECK-NEXT:     %20 = llvm.fdiv %19, %y : f32
// CHECK-NEXT:     %21 = llvm.fneg %20 : f32
// CHECK-NEXT:     %22 = llvm.icmp "slt" %a, %b : i32
// CHECK-NEXT:     %23 = llvm.fcmp "olt" %x, %y : f32
// CHECK-NEXT:     %24 = llvm.select %t, %21, %x : i1, f32
// CHECK-NEXT:     func.return %13, %16, %24, %22, %23 : i32, index, f32, i1, i1
// CHECK-NEXT:   }
// CHECK-NEXT: }

// -----

// min/max are LLVM intrinsics.
builtin.module attributes {gpu.device} {
  func.func @min_max(%a: i32, %b: i32, %x: f64, %y: f64) -> (i32, i32, i32, i32, f64, f64, f64, f64) {
    %0 = arith.maxsi %a, %b : i32
    %1 = arith.maxui %a, %b : i32
    %2 = arith.minsi %a, %b : i32
    %3 = arith.minui %a, %b : i32
    %4 = arith.maximumf %x, %y : f64
    %5 = arith.minimumf %x, %y : f64
    %6 = arith.maxnumf %x, %y : f64
    %7 = arith.minnumf %x, %y : f64
    func.return %0, %1, %2, %3, %4, %5, %6, %7 : i32, i32, i32, i32, f64, f64, f64, f64
  }
}

// CHECK: builtin.module attributes {gpu.device} {
// CHECK-NEXT:   func.func @min_max(%a: i32, %b: i32, %x: f64, %y: f64) -> (i32, i32, i32, i32, f64, f64, f64, f64) {
// CHECK-NEXT:     %0 = llvm.call_intrinsic "llvm.smax.i32"(%a, %b) : (i32, i32) -> i32
// CHECK-NEXT:     %1 = llvm.call_intrinsic "llvm.umax.i32"(%a, %b) : (i32, i32) -> i32
// CHECK-NEXT:     %2 = llvm.call_intrinsic "llvm.smin.i32"(%a, %b) : (i32, i32) -> i32
// CHECK-NEXT:     %3 = llvm.call_intrinsic "llvm.umin.i32"(%a, %b) : (i32, i32) -> i32
// CHECK-NEXT:     %4 = llvm.call_intrinsic "llvm.maximum.f64"(%x, %y) : (f64, f64) -> f64
// CHECK-NEXT:     %5 = llvm.call_intrinsic "llvm.minimum.f64"(%x, %y) : (f64, f64) -> f64
// CHECK-NEXT:     %6 = llvm.call_intrinsic "llvm.maxnum.f64"(%x, %y) : (f64, f64) -> f64
// CHECK-NEXT:     %7 = llvm.call_intrinsic "llvm.minnum.f64"(%x, %y) : (f64, f64) -> f64
// CHECK-NEXT:     func.return %0, %1, %2, %3, %4, %5, %6, %7 : i32, i32, i32, i32, f64, f64, f64, f64
// CHECK-NEXT:   }
// CHECK-NEXT: }

// -----

// Casts; index_cast is a sign extension or truncation of the i64 that an index is (or
// nothing); fptosi/fptoui/uitofp are gpuir's llvm extension ops.
builtin.module attributes {gpu.device} {
  func.func @casts(%a: i32, %i: index, %x: f32, %h: i8) -> (i64, i8, f64, f16, f32, f32, i32, i32, i32, i32, index, i64, i16) {
    %0 = arith.extsi %a : i32 to i64
    %1 = arith.trunci %a : i32 to i8
    %2 = arith.extf %x : f32 to f64
    %3 = arith.truncf %x : f32 to f16
    %4 = arith.sitofp %a : i32 to f32
    %5 = arith.uitofp %a : i32 to f32
    %6 = arith.fptosi %x : f32 to i32
    %7 = arith.fptoui %x : f32 to i32
    %8 = arith.bitcast %x : f32 to i32
    %9 = arith.index_cast %i : index to i32
    %10 = arith.index_cast %a : i32 to index
    %11 = arith.index_cast %i : index to i64
    %12 = arith.extui %h : i8 to i16
    func.return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12 : i64, i8, f64, f16, f32, f32, i32, i32, i32, i32, index, i64, i16
  }
}

// CHECK: builtin.module attributes {gpu.device} {
// CHECK-NEXT:   func.func @casts(%a: i32, %i: index, %x: f32, %h: i8) -> (i64, i8, f64, f16, f32, f32, i32, i32, i32, i32, index, i64, i16) {
// CHECK-NEXT:     %0 = llvm.sext %a : i32 to i64
// CHECK-NEXT:     %1 = llvm.trunc %a : i32 to i8
// CHECK-NEXT:     %2 = llvm.fpext %x : f32 to f64
// CHECK-NEXT:     %3 = llvm.fptrunc %x : f32 to f16
// CHECK-NEXT:     %4 = llvm.sitofp %a : i32 to f32
// CHECK-NEXT:     %5 = llvm.uitofp %a : i32 to f32
// CHECK-NEXT:     %6 = llvm.fptosi %x : f32 to i32
// CHECK-NEXT:     %7 = llvm.fptoui %x : f32 to i32
// CHECK-NEXT:     %8 = llvm.bitcast %x : f32 to i32
// CHECK-NEXT:     %9 = builtin.unrealized_conversion_cast %i : index to i64
// CHECK-NEXT:     %10 = llvm.trunc %9 : i64 to i32
// CHECK-NEXT:     %11 = llvm.sext %a : i32 to i64
// CHECK-NEXT:     %12 = builtin.unrealized_conversion_cast %11 : i64 to index
// CHECK-NEXT:     %13 = builtin.unrealized_conversion_cast %i : index to i64
// CHECK-NEXT:     %14 = llvm.zext %h : i8 to i16
// CHECK-NEXT:     func.return %0, %1, %2, %3, %4, %5, %6, %7, %8, %10, %12, %13, %14 : i64, i8, f64, f16, f32, f32, i32, i32, i32, i32, index, i64, i16
// CHECK-NEXT:   }
// CHECK-NEXT: }

// -----

// ceildivui, ceildivsi and floordivsi expand into plain integer arithmetic.
builtin.module attributes {gpu.device} {
  func.func @divisions(%a: i32, %b: i32) -> (i32, i32, i32) {
    %0 = arith.ceildivui %a, %b : i32
    %1 = arith.ceildivsi %a, %b : i32
    %2 = arith.floordivsi %a, %b : i32
    func.return %0, %1, %2 : i32, i32, i32
  }
}

// CHECK: builtin.module attributes {gpu.device} {
// CHECK-NEXT:   func.func @divisions(%a: i32, %b: i32) -> (i32, i32, i32) {
// CHECK-NEXT:     %0 = llvm.mlir.constant(1 : i32) : i32
// CHECK-NEXT:     %1 = llvm.sub %a, %0 : i32
// CHECK-NEXT:     %2 = llvm.udiv %1, %b : i32
// CHECK-NEXT:     %3 = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT:     %4 = llvm.icmp "eq" %a, %3 : i32
// CHECK-NEXT:     %5 = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT:     %6 = llvm.mlir.constant(1 : i32) : i32
// CHECK-NEXT:     %7 = llvm.add %2, %6 : i32
// CHECK-NEXT:     %8 = llvm.select %4, %5, %7 : i1, i32
// CHECK-NEXT:     %9 = llvm.sdiv %a, %b : i32
// CHECK-NEXT:     %10 = llvm.mul %9, %b : i32
// CHECK-NEXT:     %11 = llvm.sub %a, %10 : i32
// CHECK-NEXT:     %12 = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT:     %13 = llvm.icmp "ne" %11, %12 : i32
// CHECK-NEXT:     %14 = llvm.xor %a, %b : i32
// CHECK-NEXT:     %15 = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT:     %16 = llvm.icmp "slt" %14, %15 : i32
// CHECK-NEXT:     %17 = llvm.mlir.constant(true) : i1
// CHECK-NEXT:     %18 = llvm.xor %16, %17 : i1
// CHECK-NEXT:     %19 = llvm.and %13, %18 : i1
// CHECK-NEXT:     %20 = llvm.mlir.constant(1 : i32) : i32
// CHECK-NEXT:     %21 = llvm.add %9, %20 : i32
// CHECK-NEXT:     %22 = llvm.select %19, %21, %9 : i1, i32
// CHECK-NEXT:     %23 = llvm.sdiv %a, %b : i32
// CHECK-NEXT:     %24 = llvm.mul %23, %b : i32
// CHECK-NEXT:     %25 = llvm.sub %a, %24 : i32
// CHECK-NEXT:     %26 = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT:     %27 = llvm.icmp "ne" %25, %26 : i32
// CHECK-NEXT:     %28 = llvm.xor %a, %b : i32
// CHECK-NEXT:     %29 = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT:     %30 = llvm.icmp "slt" %28, %29 : i32
// CHECK-NEXT:     %31 = llvm.and %27, %30 : i1
// CHECK-NEXT:     %32 = llvm.mlir.constant(1 : i32) : i32
// CHECK-NEXT:     %33 = llvm.sub %23, %32 : i32
// CHECK-NEXT:     %34 = llvm.select %31, %33, %23 : i1, i32
// CHECK-NEXT:     func.return %8, %22, %34 : i32, i32, i32
// CHECK-NEXT:   }
// CHECK-NEXT: }
