// RUN: gpu-opt %s | filecheck %s
// RUN: ROUNDTRIP
// RUN: gpu-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// The vector ops gpuir runs: xDSL's (broadcast, extract, insert, shuffle, fma, reduction,
// bitcast) and the two gpuir adds to them (from_elements, shape_cast), in MLIR 22's syntax.

func.func @f(%x: f32, %y: f32, %i: index, %v: vector<4xf32>) -> (vector<2x2xf32>, vector<4xf32>, f32) {
  %a = vector.from_elements %x, %y, %y, %x : vector<2x2xf32>
  %b = vector.shape_cast %a : vector<2x2xf32> to vector<4xf32>
  %c = vector.broadcast %x : f32 to vector<4xf32>
  %d = vector.extract %a[%i, 1] : f32 from vector<2x2xf32>
  %e = vector.insert %d, %v [2] : f32 into vector<4xf32>
  %f = vector.shuffle %b, %c [0, 4, 1, 5] : vector<4xf32>, vector<4xf32>
  %g = vector.fma %e, %f, %v : vector<4xf32>
  %h = vector.bitcast %g : vector<4xf32> to vector<4xi32>
  %r = vector.reduction <add>, %g, %x : vector<4xf32> into f32
  func.return %a, %g, %r : vector<2x2xf32>, vector<4xf32>, f32
}

// CHECK:      func.func @f(%x: f32, %y: f32, %i: index, %v: vector<4xf32>) -> (vector<2x2xf32>, vector<4xf32>, f32) {
// CHECK-NEXT:   %a = vector.from_elements %x, %y, %y, %x : vector<2x2xf32>
// CHECK-NEXT:   %b = vector.shape_cast %a : vector<2x2xf32> to vector<4xf32>
// CHECK-NEXT:   %c = vector.broadcast %x : f32 to vector<4xf32>
// CHECK-NEXT:   %d = vector.extract %a[%i, 1] : f32 from vector<2x2xf32>
// CHECK-NEXT:   %e = vector.insert %d, %v [2] : f32 into vector<4xf32>
// CHECK-NEXT:   %f = vector.shuffle %b, %c [0, 4, 1, 5] : vector<4xf32>, vector<4xf32>
// CHECK-NEXT:   %g = vector.fma %e, %f, %v : vector<4xf32>
// CHECK-NEXT:   %h = vector.bitcast %g : vector<4xf32> to vector<4xi32>
// CHECK-NEXT:   %r = vector.reduction <add>, %g, %x : vector<4xf32> into f32
// CHECK-NEXT:   func.return %a, %g, %r : vector<2x2xf32>, vector<4xf32>, f32
// CHECK-NEXT: }

// GENERIC: %a = "vector.from_elements"(%x, %y, %y, %x) : (f32, f32, f32, f32) -> vector<2x2xf32>
// GENERIC: %b = "vector.shape_cast"(%a) : (vector<2x2xf32>) -> vector<4xf32>
