// RUN: gpu-opt %s | filecheck %s
// RUN: ROUNDTRIP
// RUN: gpu-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// vector.contract in MLIR 22's syntax: a matmul of f16 into f32 (kind add), a transposed
// matmul with a permuted accumulator, a batched one, every integer and float kind, a dot
// product into a scalar (no kind: add), and attributes after the operands.

#mk = affine_map<(m, n, k) -> (m, k)>
#kn = affine_map<(m, n, k) -> (k, n)>
#nk = affine_map<(m, n, k) -> (n, k)>
#mn = affine_map<(m, n, k) -> (m, n)>
#nm = affine_map<(m, n, k) -> (n, m)>
func.func @f(%x: vector<2x3xf16>, %y: vector<3x4xf16>, %yt: vector<4x3xf16>, %z: vector<2x4xf32>,
             %zt: vector<4x2xf16>, %bx: vector<5x2x3xi8>, %by: vector<5x3x4xi8>, %bz: vector<5x2x4xi32>,
             %u: vector<8xi16>, %w: i64, %f: vector<2x3xf32>, %g: vector<3x4xf32>) -> (vector<2x4xf32>, vector<4x2xf16>, vector<5x2x4xi32>, i64) {
  %a = vector.contract {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %x, %y, %z : vector<2x3xf16>, vector<3x4xf16> into vector<2x4xf32>
  %b = vector.contract {indexing_maps = [#mk, #nk, #nm], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<mul>} %x, %yt, %zt : vector<2x3xf16>, vector<4x3xf16> into vector<4x2xf16>
  %c = vector.contract {indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, k, n)>, affine_map<(b, m, n, k) -> (b, m, n)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"], kind = #vector.kind<maxsi>} %bx, %by, %bz : vector<5x2x3xi8>, vector<5x3x4xi8> into vector<5x2x4xi32>
  %d = vector.contract {indexing_maps = [affine_map<(k) -> (k)>, affine_map<(k) -> (k)>, affine_map<(k) -> ()>], iterator_types = ["reduction"]} %u, %u, %w {tag = 1 : i64} : vector<8xi16>, vector<8xi16> into i64
  %e0 = vector.contract {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<minnumf>} %f, %g, %z : vector<2x3xf32>, vector<3x4xf32> into vector<2x4xf32>
  %e1 = vector.contract {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<maxnumf>} %f, %g, %e0 : vector<2x3xf32>, vector<3x4xf32> into vector<2x4xf32>
  %e2 = vector.contract {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<minimumf>} %f, %g, %e1 : vector<2x3xf32>, vector<3x4xf32> into vector<2x4xf32>
  %e3 = vector.contract {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<maximumf>} %f, %g, %e2 : vector<2x3xf32>, vector<3x4xf32> into vector<2x4xf32>
  %i0 = vector.contract {indexing_maps = [affine_map<(k) -> (k)>, affine_map<(k) -> (k)>, affine_map<(k) -> ()>], iterator_types = ["reduction"], kind = #vector.kind<minsi>} %u, %u, %d : vector<8xi16>, vector<8xi16> into i64
  %i1 = vector.contract {indexing_maps = [affine_map<(k) -> (k)>, affine_map<(k) -> (k)>, affine_map<(k) -> ()>], iterator_types = ["reduction"], kind = #vector.kind<minui>} %u, %u, %i0 : vector<8xi16>, vector<8xi16> into i64
  %i2 = vector.contract {indexing_maps = [affine_map<(k) -> (k)>, affine_map<(k) -> (k)>, affine_map<(k) -> ()>], iterator_types = ["reduction"], kind = #vector.kind<maxui>} %u, %u, %i1 : vector<8xi16>, vector<8xi16> into i64
  %i3 = vector.contract {indexing_maps = [affine_map<(k) -> (k)>, affine_map<(k) -> (k)>, affine_map<(k) -> ()>], iterator_types = ["reduction"], kind = #vector.kind<and>} %u, %u, %i2 : vector<8xi16>, vector<8xi16> into i64
  %i4 = vector.contract {indexing_maps = [affine_map<(k) -> (k)>, affine_map<(k) -> (k)>, affine_map<(k) -> ()>], iterator_types = ["reduction"], kind = #vector.kind<or>} %u, %u, %i3 : vector<8xi16>, vector<8xi16> into i64
  %i5 = vector.contract {indexing_maps = [affine_map<(k) -> (k)>, affine_map<(k) -> (k)>, affine_map<(k) -> ()>], iterator_types = ["reduction"], kind = #vector.kind<xor>} %u, %u, %i4 : vector<8xi16>, vector<8xi16> into i64
  func.return %e3, %b, %c, %i5 : vector<2x4xf32>, vector<4x2xf16>, vector<5x2x4xi32>, i64
}

// CHECK:      %a = vector.contract {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %x, %y, %z : vector<2x3xf16>, vector<3x4xf16> into vector<2x4xf32>
// CHECK-NEXT: %b = vector.contract {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d1, d0)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<mul>} %x, %yt, %zt : vector<2x3xf16>, vector<4x3xf16> into vector<4x2xf16>
// CHECK-NEXT: %c = vector.contract {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"], kind = #vector.kind<maxsi>} %bx, %by, %bz : vector<5x2x3xi8>, vector<5x3x4xi8> into vector<5x2x4xi32>
// CHECK-NEXT: %d = vector.contract {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"], kind = #vector.kind<add>} %u, %u, %w {tag = 1 : i64} : vector<8xi16>, vector<8xi16> into i64
// CHECK-NEXT: %e0 = vector.contract {{.*}} kind = #vector.kind<minnumf>}
// CHECK-NEXT: %e1 = vector.contract {{.*}} kind = #vector.kind<maxnumf>}
// CHECK-NEXT: %e2 = vector.contract {{.*}} kind = #vector.kind<minimumf>}
// CHECK-NEXT: %e3 = vector.contract {{.*}} kind = #vector.kind<maximumf>}
// CHECK-NEXT: %i0 = vector.contract {{.*}} kind = #vector.kind<minsi>}
// CHECK-NEXT: %i1 = vector.contract {{.*}} kind = #vector.kind<minui>}
// CHECK-NEXT: %i2 = vector.contract {{.*}} kind = #vector.kind<maxui>}
// CHECK-NEXT: %i3 = vector.contract {{.*}} kind = #vector.kind<and>}
// CHECK-NEXT: %i4 = vector.contract {{.*}} kind = #vector.kind<or>}
// CHECK-NEXT: %i5 = vector.contract {{.*}} kind = #vector.kind<xor>}

// GENERIC: %a = "vector.contract"(%x, %y, %z) <{indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>}> : (vector<2x3xf16>, vector<3x4xf16>, vector<2x4xf32>) -> vector<2x4xf32>
// GENERIC: %d = "vector.contract"(%u, %u, %w) <{indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"], kind = #vector.kind<add>}> {tag = 1 : i64} : (vector<8xi16>, vector<8xi16>, i64) -> i64
