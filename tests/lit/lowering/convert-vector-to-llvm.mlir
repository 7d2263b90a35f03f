// RUN: gpu-opt %s -p convert-vector-to-llvm --split-input-file | filecheck %s

// A vector<2x2xf32> is one LLVM vector<4xf32>, row-major: the element at [i, j] is lane 2i + j
// (a dynamic i: an i64 offset), a row a shufflevector of its lanes, an inserted row its
// elements one by one.
builtin.module attributes {gpu.device} {
  func.func @moves(%x: f32, %y: f32, %i: index) -> (vector<2x2xf32>, f32, f32, vector<2xf32>, vector<2x2xf32>, vector<2x2xf32>) {
    %v = vector.from_elements %x, %y, %y, %x : vector<2x2xf32>
    %e = vector.extract %v[1, 0] : f32 from vector<2x2xf32>
    %d = vector.extract %v[%i, 1] : f32 from vector<2x2xf32>
    %r = vector.extract %v[1] : vector<2xf32> from vector<2x2xf32>
    %n = vector.insert %r, %v [0] : vector<2xf32> into vector<2x2xf32>
    %s = vector.insert %x, %v [%i, 0] : f32 into vector<2x2xf32>
    func.return %v, %e, %d, %r, %n, %s : vector<2x2xf32>, f32, f32, vector<2xf32>, vector<2x2xf32>, vector<2x2xf32>
  }
}

// CHECK: builtin.module attributes {gpu.device} {
// CHECK-NEXT:   func.func @moves(%x: f32, %y: f32, %i: index) -> (vector<2x2xf32>, f32, f32, vector<2xf32>, vector<2x2xf32>, vector<2x2xf32>) {
// CHECK-NEXT:     %0 = llvm.mlir.poison : vector<4xf32>
// CHECK-NEXT:     %1 = llvm.mlir.constant(0) : i64
// CHECK-NEXT:     %2 = llvm.insertelement %x, %0[%1 : i64] : vector<4xf32>
// CHECK-NEXT:     %3 = llvm.mlir.constant(1) : i64
// CHECK-NEXT:     %4 = llvm.insertelement %y, %2[%3 : i64] : vector<4xf32>
// CHECK-NEXT:     %5 = llvm.mlir.constant(2) : i64
// CHECK-NEXT:     %6 = llvm.insertelement %y, %4[%5 : i64] : vector<4xf32>
// CHECK-NEXT:     %7 = llvm.mlir.constant(3) : i64
// CHECK-NEXT:     %8 = llvm.insertelement %x, %6[%7 : i64] : vector<4xf32>
// CHECK-NEXT:     %v = builtin.unrealized_conversion_cast %8 : vector<4xf32> to vector<2x2xf32>
// CHECK-NEXT:     %9 = llvm.mlir.constant(2) : i64
// CHECK-NEXT:     %e = "llvm.extractelement"(%8, %9) : (vector<4xf32>, i64) -> f32
// CHECK-NEXT:     %10 = builtin.unrealized_conversion_cast %i : index to i64
// CHECK-NEXT:     %11 = llvm.mlir.constant(2) : i64
// CHECK-NEXT:     %12 = llvm.mul %10, %11 : i64
// CHECK-NEXT:     %13 = llvm.mlir.constant(1) : i64
// CHECK-NEXT:     %14 = llvm.add %13, %12 : i64
// CHECK-NEXT:     %d = "llvm.extractelement"(%8, %14) : (vector<4xf32>, i64) -> f32
// CHECK-NEXT:     %r = llvm.shufflevector %8, %8 [2, 3] : vector<4xf32>
// CHECK-NEXT:     %15 = llvm.mlir.constant(0) : i64
// CHECK-NEXT:     %16 = "llvm.extractelement"(%r, %15) : (vector<2xf32>, i64) -> f32
// CHECK-NEXT:     %17 = llvm.mlir.constant(0) : i64
// CHECK-NEXT:     %18 = llvm.insertelement %16, %8[%17 : i64] : vector<4xf32>
// CHECK-NEXT:     %19 = llvm.mlir.constant(1) : i64
// CHECK-NEXT:     %20 = "llvm.extractelement"(%r, %19) : (vector<2xf32>, i64) -> f32
// CHECK-NEXT:     %21 = llvm.mlir.constant(1) : i64
// CHECK-NEXT:     %22 = llvm.insertelement %20, %18[%21 : i64] : vector<4xf32>
// CHECK-NEXT:     %n = builtin.unrealized_conversion_cast %22 : vector<4xf32> to vector<2x2xf32>
// CHECK-NEXT:     %23 = builtin.unrealized_conversion_cast %i : index to i64
// CHECK-NEXT:     %24 = llvm.mlir.constant(2) : i64
// CHECK-NEXT:     %25 = llvm.mul %23, %24 : i64
// CHECK-NEXT:     %26 = llvm.insertelement %x, %8[%25 : i64] : vector<4xf32>
// CHECK-NEXT:     %s = builtin.unrealized_conversion_cast %26 : vector<4xf32> to vector<2x2xf32>
// CHECK-NEXT:     func.return %v, %e, %d, %r, %n, %s : vector<2x2xf32>, f32, f32, vector<2xf32>, vector<2x2xf32>, vector<2x2xf32>
// CHECK-NEXT:   }
// CHECK-NEXT: }

// -----

// A scalar broadcast: insertelement, then a shufflevector of lane 0; a vector broadcast and a
// shuffle: one shufflevector each.
builtin.module attributes {gpu.device} {
  func.func @shuffles(%x: f32, %v: vector<2xf32>, %w: vector<4xf32>) -> (vector<4xf32>, vector<2x2xf32>, vector<3xf32>) {
    %b = vector.broadcast %x : f32 to vector<4xf32>
    %c = vector.broadcast %v : vector<2xf32> to vector<2x2xf32>
    %s = vector.shuffle %w, %w [0, 5, 3] : vector<4xf32>, vector<4xf32>
    func.return %b, %c, %s : vector<4xf32>, vector<2x2xf32>, vector<3xf32>
  }
}

// CHECK: builtin.module attributes {gpu.device} {
// CHECK-NEXT:   func.func @shuffles(%x: f32, %v: vector<2xf32>, %w: vector<4xf32>) -> (vector<4xf32>, vector<2x2xf32>, vector<3xf32>) {
// CHECK-NEXT:     %0 = llvm.mlir.poison : vector<4xf32>
// CHECK-NEXT:     %1 = llvm.mlir.constant(0) : i64
// CHECK-NEXT:     %2 = llvm.insertelement %x, %0[%1 : i64] : vector<4xf32>
// CHECK-NEXT:     %b = llvm.shufflevector %2, %2 [0, 0, 0, 0] : vector<4xf32>
// CHECK-NEXT:     %3 = llvm.shufflevector %v, %v [0, 1, 0, 1] : vector<2xf32>
// CHECK-NEXT:     %c = builtin.unrealized_conversion_cast %3 : vector<4xf32> to vector<2x2xf32>
// CHECK-NEXT:     %s = llvm.shufflevector %w, %w [0, 5, 3] : vector<4xf32>
// CHECK-NEXT:     func.return %b, %c, %s : vector<4xf32>, vector<2x2xf32>, vector<3xf32>
// CHECK-NEXT:   }
// CHECK-NEXT: }

// -----

// fma and reductions as intrinsics: float add and mul ordered from the accumulator (+0.0 without
// one), the others reduced, then combined with the accumulator; bitcast and shape_cast.
builtin.module attributes {gpu.device} {
  func.func @arithmetic(%v: vector<4xf32>, %a: f32, %k: vector<4xi32>, %j: i32) -> (vector<4xf32>, f32, f32, f32, i32, i32, vector<4xi32>, vector<2x2xf32>) {
    %f = vector.fma %v, %v, %v : vector<4xf32>
    %r0 = vector.reduction <add>, %v : vector<4xf32> into f32
    %r1 = vector.reduction <mul>, %v, %a : vector<4xf32> into f32
    %r2 = vector.reduction <maxnumf>, %v, %a : vector<4xf32> into f32
    %r3 = vector.reduction <add>, %k, %j : vector<4xi32> into i32
    %r4 = vector.reduction <minsi>, %k, %j : vector<4xi32> into i32
    %c = vector.bitcast %v : vector<4xf32> to vector<4xi32>
    %s = vector.shape_cast %v : vector<4xf32> to vector<2x2xf32>
    func.return %f, %r0, %r1, %r2, %r3, %r4, %c, %s : vector<4xf32>, f32, f32, f32, i32, i32, vector<4xi32>, vector<2x2xf32>
  }
}

// CHECK: builtin.module attributes {gpu.device} {
// CHECK-NEXT:   func.func @arithmetic(%v: vector<4xf32>, %a: f32, %k: vector<4xi32>, %j: i32) -> (vector<4xf32>, f32, f32, f32, i32, i32, vector<4xi32>, vector<2x2xf32>) {
// CHECK-NEXT:     %f = llvm.call_intrinsic "llvm.fma.v4f32"(%v, %v, %v) : (vector<4xf32>, vector<4xf32>, vector<4xf32>) -> vector<4xf32>
// CHECK-NEXT:     %0 = llvm.mlir.constant(0.000000e+00 : f32) : f32
// CHECK-NEXT:     %r0 = llvm.call_intrinsic "llvm.vector.reduce.fadd.v4f32"(%0, %v) : (f32, vector<4xf32>) -> f32
// CHECK-NEXT:     %r1 = llvm.call_intrinsic "llvm.vector.reduce.fmul.v4f32"(%a, %v) : (f32, vector<4xf32>) -> f32
// CHECK-NEXT:     %1 = llvm.call_intrinsic "llvm.vector.reduce.fmax.v4f32"(%v) : (vector<4xf32>) -> f32
// CHECK-NEXT:     %r2 = llvm.call_intrinsic "llvm.maxnum.f32"(%a, %1) : (f32, f32) -> f32
// CHECK-NEXT:     %2 = llvm.call_intrinsic "llvm.vector.reduce.add.v4i32"(%k) : (vector<4xi32>) -> i32
// CHECK-NEXT:     %r3 = llvm.add %j, %2 : i32
// CHECK-NEXT:     %3 = llvm.call_intrinsic "llvm.vector.reduce.smin.v4i32"(%k) : (vector<4xi32>) -> i32
// CHECK-NEXT:     %r4 = llvm.call_intrinsic "llvm.smin.i32"(%j, %3) : (i32, i32) -> i32
// CHECK-NEXT:     %c = llvm.bitcast %v : vector<4xf32> to vector<4xi32>
// CHECK-NEXT:     %s = builtin.unrealized_conversion_cast %v : vector<4xf32> to vector<2x2xf32>
// CHECK-NEXT:     func.return %f, %r0, %r1, %r2, %r3, %r4, %c, %s : vector<4xf32>, f32, f32, f32, i32, i32, vector<4xi32>, vector<2x2xf32>
// CHECK-NEXT:   }
// CHECK-NEXT: }

// -----

// Lanes that are all constants are one vector constant; a lane that is not makes
// insertelements.
builtin.module attributes {gpu.device} {
  func.func @constants(%x: i32) -> (vector<2x2xf32>, vector<3xi32>, vector<2xi1>) {
    %a = llvm.mlir.constant(1.5 : f32) : f32
    %b = llvm.mlir.constant(-2.0 : f32) : f32
    %c = llvm.mlir.constant(7 : i32) : i32
    %t = llvm.mlir.constant(true) : i1
    %f = llvm.mlir.constant(false) : i1
    %v = vector.from_elements %a, %b, %b, %a : vector<2x2xf32>
    %w = vector.from_elements %c, %x, %c : vector<3xi32>
    %u = vector.from_elements %t, %f : vector<2xi1>
    func.return %v, %w, %u : vector<2x2xf32>, vector<3xi32>, vector<2xi1>
  }
}

// CHECK:      func.func @constants
// CHECK:        %0 = llvm.mlir.constant(dense<[1.500000e+00, -2.000000e+00, -2.000000e+00, 1.500000e+00]> : vector<4xf32>) : vector<4xf32>
// CHECK-NEXT:   %v = builtin.unrealized_conversion_cast %0 : vector<4xf32> to vector<2x2xf32>
// CHECK-NEXT:   %1 = llvm.mlir.poison : vector<3xi32>
// CHECK-NEXT:   %2 = llvm.mlir.constant(0) : i64
// CHECK-NEXT:   %3 = llvm.insertelement %c, %1[%2 : i64] : vector<3xi32>
// CHECK:        %w = llvm.insertelement %c, %5[%6 : i64] : vector<3xi32>
// CHECK-NEXT:   %u = llvm.mlir.constant(dense<[true, false]> : vector<2xi1>) : vector<2xi1>
