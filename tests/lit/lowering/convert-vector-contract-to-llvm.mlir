// RUN: gpu-opt %s -p convert-vector-to-llvm | filecheck %s

// vector.contract as whole-vector LLVM steps. A 2x2x3 matmul (3 reduction points, 4
// accumulator lanes): per point k, the lhs's column k and the rhs's row k shuffled into the
// accumulator's shape, extended (f16 into f32), multiplied and added. A matrix-vector product
// with 4 reduction points and 2 lanes: per lane, its products reduced from the accumulator's
// lane. A dot product of i8 into i32 (a scalar accumulator) with <maxsi>: one reduction.
builtin.module attributes {gpu.device} {
  func.func @mm(%x: vector<2x3xf16>, %y: vector<3x2xf16>, %z: vector<2x2xf32>) -> vector<2x2xf32> {
    %r = vector.contract {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %x, %y, %z : vector<2x3xf16>, vector<3x2xf16> into vector<2x2xf32>
    func.return %r : vector<2x2xf32>
  }
  func.func @mv(%a: vector<2x4xf32>, %v: vector<4xf32>, %z: vector<2xf32>) -> vector<2xf32> {
    %d = vector.contract {indexing_maps = [affine_map<(i, k) -> (i, k)>, affine_map<(i, k) -> (k)>, affine_map<(i, k) -> (i)>], iterator_types = ["parallel", "reduction"], kind = #vector.kind<add>} %a, %v, %z : vector<2x4xf32>, vector<4xf32> into vector<2xf32>
    func.return %d : vector<2xf32>
  }
  func.func @dot(%u: vector<3xi8>, %w: i32) -> i32 {
    %d = vector.contract {indexing_maps = [affine_map<(k) -> (k)>, affine_map<(k) -> (k)>, affine_map<(k) -> ()>], iterator_types = ["reduction"], kind = #vector.kind<maxsi>} %u, %u, %w : vector<3xi8>, vector<3xi8> into i32
    func.return %d : i32
  }
}

// CHECK:        func.func @mm(%x: vector<2x3xf16>, %y: vector<3x2xf16>, %z: vector<2x2xf32>) -> vector<2x2xf32> {
// CHECK-NEXT:     %0 = builtin.unrealized_conversion_cast %x : vector<2x3xf16> to vector<6xf16>
// CHECK-NEXT:     %1 = builtin.unrealized_conversion_cast %y : vector<3x2xf16> to vector<6xf16>
// CHECK-NEXT:     %2 = builtin.unrealized_conversion_cast %z : vector<2x2xf32> to vector<4xf32>
// CHECK-NEXT:     %3 = llvm.shufflevector %0, %0 [0, 0, 3, 3] : vector<6xf16>
// CHECK-NEXT:     %4 = llvm.fpext %3 : vector<4xf16> to vector<4xf32>
// CHECK-NEXT:     %5 = llvm.shufflevector %1, %1 [0, 1, 0, 1] : vector<6xf16>
// CHECK-NEXT:     %6 = llvm.fpext %5 : vector<4xf16> to vector<4xf32>
// CHECK-NEXT:     %7 = llvm.fmul %4, %6 : vector<4xf32>
// CHECK-NEXT:     %8 = llvm.fadd %2, %7 : vector<4xf32>
// CHECK-NEXT:     %9 = llvm.shufflevector %0, %0 [1, 1, 4, 4] : vector<6xf16>
// CHECK-NEXT:     %10 = llvm.fpext %9 : vector<4xf16> to vector<4xf32>
// CHECK-NEXT:     %11 = llvm.shufflevector %1, %1 [2, 3, 2, 3] : vector<6xf16>
// CHECK-NEXT:     %12 = llvm.fpext %11 : vector<4xf16> to vector<4xf32>
// CHECK-NEXT:     %13 = llvm.fmul %10, %12 : vector<4xf32>
// CHECK-NEXT:     %14 = llvm.fadd %8, %13 : vector<4xf32>
// CHECK-NEXT:     %15 = llvm.shufflevector %0, %0 [2, 2, 5, 5] : vector<6xf16>
// CHECK-NEXT:     %16 = llvm.fpext %15 : vector<4xf16> to vector<4xf32>
// CHECK-NEXT:     %17 = llvm.shufflevector %1, %1 [4, 5, 4, 5] : vector<6xf16>
// CHECK-NEXT:     %18 = llvm.fpext %17 : vector<4xf16> to vector<4xf32>
// CHECK-NEXT:     %19 = llvm.fmul %16, %18 : vector<4xf32>
// CHECK-NEXT:     %20 = llvm.fadd %14, %19 : vector<4xf32>
// CHECK-NEXT:     %r = builtin.unrealized_conversion_cast %20 : vector<4xf32> to vector<2x2xf32>
// CHECK-NEXT:     func.return %r : vector<2x2xf32>
// CHECK-NEXT:   }
// CHECK:        func.func @mv(%a: vector<2x4xf32>, %v: vector<4xf32>, %z: vector<2xf32>) -> vector<2xf32> {
// CHECK-NEXT:     %0 = builtin.unrealized_conversion_cast %a : vector<2x4xf32> to vector<8xf32>
// CHECK-NEXT:     %1 = llvm.shufflevector %0, %0 [0, 1, 2, 3] : vector<8xf32>
// CHECK-NEXT:     %2 = llvm.fmul %1, %v : vector<4xf32>
// CHECK-NEXT:     %3 = llvm.mlir.constant(0) : i64
// CHECK-NEXT:     %4 = "llvm.extractelement"(%z, %3) : (vector<2xf32>, i64) -> f32
// CHECK-NEXT:     %5 = llvm.call_intrinsic "llvm.vector.reduce.fadd.v4f32"(%4, %2) : (f32, vector<4xf32>) -> f32
// CHECK-NEXT:     %6 = llvm.mlir.constant(0) : i64
// CHECK-NEXT:     %7 = llvm.insertelement %5, %z[%6 : i64] : vector<2xf32>
// CHECK-NEXT:     %8 = llvm.shufflevector %0, %0 [4, 5, 6, 7] : vector<8xf32>
// CHECK-NEXT:     %9 = llvm.fmul %8, %v : vector<4xf32>
// CHECK-NEXT:     %10 = llvm.mlir.constant(1) : i64
// CHECK-NEXT:     %11 = "llvm.extractelement"(%z, %10) : (vector<2xf32>, i64) -> f32
// CHECK-NEXT:     %12 = llvm.call_intrinsic "llvm.vector.reduce.fadd.v4f32"(%11, %9) : (f32, vector<4xf32>) -> f32
// CHECK-NEXT:     %13 = llvm.mlir.constant(1) : i64
// CHECK-NEXT:     %d = llvm.insertelement %12, %7[%13 : i64] : vector<2xf32>
// CHECK-NEXT:     func.return %d : vector<2xf32>
// CHECK-NEXT:   }
// CHECK:        func.func @dot(%u: vector<3xi8>, %w: i32) -> i32 {
// CHECK-NEXT:     %0 = llvm.sext %u : vector<3xi8> to vector<3xi32>
// CHECK-NEXT:     %1 = llvm.sext %u : vector<3xi8> to vector<3xi32>
// CHECK-NEXT:     %2 = llvm.mul %0, %1 : vector<3xi32>
// CHECK-NEXT:     %3 = llvm.call_intrinsic "llvm.vector.reduce.smax.v3i32"(%2) : (vector<3xi32>) -> i32
// CHECK-NEXT:     %d = llvm.call_intrinsic "llvm.smax.i32"(%w, %3) : (i32, i32) -> i32
// CHECK-NEXT:     func.return %d : i32
// CHECK-NEXT:   }
