// RUN: gpu-opt %s --verify-diagnostics --split-input-file

// One case per rule of vector.contract's verifier and parser (gpuir/dialects/vector_ext.py).

func.func @f(%x: vector<2x3xf32>, %y: vector<3x4xf32>, %z: vector<2x4xf32>) -> vector<2x4xf32> {
  // expected-error @below {{'vector.contract' expects iterator types "parallel" or "reduction", found "window"}}
  %r = vector.contract {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "window", "reduction"]} %x, %y, %z : vector<2x3xf32>, vector<3x4xf32> into vector<2x4xf32>
  func.return %r : vector<2x4xf32>
}

// -----

func.func @f(%x: vector<2x3xf32>, %y: vector<3x4xf32>, %z: vector<2x4xf32>) -> vector<2x4xf32> {
  // expected-error @below {{'vector.contract' expects 3 indexing maps (lhs, rhs, acc), found 2}}
  %r = vector.contract {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>], iterator_types = ["parallel", "parallel", "reduction"]} %x, %y, %z : vector<2x3xf32>, vector<3x4xf32> into vector<2x4xf32>
  func.return %r : vector<2x4xf32>
}

// -----

func.func @f(%x: vector<2x3xf32>, %y: vector<3x4xf32>, %z: vector<2x4xf32>) -> vector<2x4xf32> {
  // expected-error @below {{'vector.contract' expects indexing map 0 (lhs) to take 3 dimensions (one per iterator type) and no symbols, found (d0, d1) -> (d0, d1)}}
  %r = vector.contract {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]} %x, %y, %z : vector<2x3xf32>, vector<3x4xf32> into vector<2x4xf32>
  func.return %r : vector<2x4xf32>
}

// -----

func.func @f(%x: vector<2x3xf32>, %y: vector<3x4xf32>, %z: vector<2x4xf32>) -> vector<2x4xf32> {
  // expected-error @below {{'vector.contract' expects indexing map 1 (rhs) to be a projected permutation, found (d0, d1, d2) -> (d2, d2)}}
  %r = vector.contract {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, k)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]} %x, %y, %z : vector<2x3xf32>, vector<3x4xf32> into vector<2x4xf32>
  func.return %r : vector<2x4xf32>
}

// -----

func.func @f(%x: vector<2x3xf32>, %y: vector<3x4xf32>, %z: vector<2x4xf32>) -> vector<2x4xf32> {
  // expected-error @below {{'vector.contract' expects indexing map 1 (rhs) to be a projected permutation, found (d0, d1, d2) -> ((d2 + 1), d1)}}
  %r = vector.contract {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k + 1, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]} %x, %y, %z : vector<2x3xf32>, vector<3x4xf32> into vector<2x4xf32>
  func.return %r : vector<2x4xf32>
}

// -----

func.func @f(%x: vector<2x3xf32>, %y: vector<3x4xf32>, %z: vector<2x4xf32>) -> vector<2x4xf32> {
  // expected-error @below {{'vector.contract' expects indexing map 2 (acc) to have 2 results (the rank of vector<2x4xf32>), found (d0, d1, d2) -> (d0)}}
  %r = vector.contract {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m)>], iterator_types = ["parallel", "parallel", "reduction"]} %x, %y, %z : vector<2x3xf32>, vector<3x4xf32> into vector<2x4xf32>
  func.return %r : vector<2x4xf32>
}

// -----

func.func @f(%x: vector<2x3xf32>, %y: vector<5x4xf32>, %z: vector<2x4xf32>) -> vector<2x4xf32> {
  // expected-error @below {{'vector.contract' expects one size of d2, found 3 in the lhs and 5 in the rhs}}
  %r = vector.contract {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]} %x, %y, %z : vector<2x3xf32>, vector<5x4xf32> into vector<2x4xf32>
  func.return %r : vector<2x4xf32>
}

// -----

func.func @f(%x: vector<2x3xf32>, %y: vector<3x4xf32>, %z: vector<2x4xf32>) -> vector<2x4xf32> {
  // expected-error @below {{'vector.contract' expects every dimension in the lhs or the rhs map, d3 is in neither}}
  %r = vector.contract {indexing_maps = [affine_map<(m, n, k, l) -> (m, k)>, affine_map<(m, n, k, l) -> (k, n)>, affine_map<(m, n, k, l) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} %x, %y, %z : vector<2x3xf32>, vector<3x4xf32> into vector<2x4xf32>
  func.return %r : vector<2x4xf32>
}

// -----

func.func @f(%x: vector<2x3xf32>, %y: vector<3x4xf32>, %z: vector<2x4xf32>) -> vector<2x4xf32> {
  // expected-error @below {{'vector.contract' expects only parallel dimensions in the acc map, found the reduction d1}}
  %r = vector.contract {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "reduction", "reduction"]} %x, %y, %z : vector<2x3xf32>, vector<3x4xf32> into vector<2x4xf32>
  func.return %r : vector<2x4xf32>
}

// -----

func.func @f(%x: vector<2x3xf32>, %y: vector<3x4xf32>, %z: vector<2xf32>) -> vector<2xf32> {
  // expected-error @below {{'vector.contract' expects every parallel dimension in the acc map, d1 is not}}
  %r = vector.contract {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m)>], iterator_types = ["parallel", "parallel", "reduction"]} %x, %y, %z : vector<2x3xf32>, vector<3x4xf32> into vector<2xf32>
  func.return %r : vector<2xf32>
}

// -----

func.func @f(%x: vector<2x3xf32>, %y: vector<3x4xf32>, %z: vector<4x2xf32>) -> vector<4x2xf32> {
  // expected-error @below {{'vector.contract' expects an accumulator of shape [2, 4] (the acc map's dimensions), found vector<4x2xf32>}}
  %r = vector.contract {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]} %x, %y, %z : vector<2x3xf32>, vector<3x4xf32> into vector<4x2xf32>
  func.return %r : vector<4x2xf32>
}

// -----

func.func @f(%x: vector<2x3xf32>, %y: vector<3x4xf32>, %z: f32) -> f32 {
  // expected-error @below {{'vector.contract' expects every parallel dimension in the acc map, d0 is not}}
  %r = vector.contract {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> ()>], iterator_types = ["parallel", "parallel", "reduction"]} %x, %y, %z : vector<2x3xf32>, vector<3x4xf32> into f32
  func.return %r : f32
}

// -----

func.func @f(%x: vector<2x3xf32>, %y: vector<3x4xf32>, %z: vector<2x4xf16>) -> vector<2x4xf16> {
  // expected-error @below {{'vector.contract' expects lhs and rhs elements of type f16 or a narrower one of its kind, found f32}}
  %r = vector.contract {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]} %x, %y, %z : vector<2x3xf32>, vector<3x4xf32> into vector<2x4xf16>
  func.return %r : vector<2x4xf16>
}

// -----

func.func @f(%x: vector<2x3xf32>, %y: vector<3x4xf32>, %z: vector<2x4xi32>) -> vector<2x4xi32> {
  // expected-error @below {{'vector.contract' expects lhs and rhs elements of type i32 or a narrower one of its kind, found f32}}
  %r = vector.contract {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]} %x, %y, %z : vector<2x3xf32>, vector<3x4xf32> into vector<2x4xi32>
  func.return %r : vector<2x4xi32>
}

// -----

func.func @f(%x: vector<2x3xf32>, %y: vector<3x4xf32>, %z: vector<2x4xf32>) -> vector<2x4xf32> {
  // expected-error @below {{'vector.contract' combines f32 with one of add, mul, minnumf, maxnumf, minimumf, maximumf, found xor}}
  %r = vector.contract {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<xor>} %x, %y, %z : vector<2x3xf32>, vector<3x4xf32> into vector<2x4xf32>
  func.return %r : vector<2x4xf32>
}

// -----

func.func @f(%x: vector<2x3xi32>, %y: vector<3x4xi32>, %z: vector<2x4xi32>) -> vector<2x4xi32> {
  // expected-error @below {{'vector.contract' combines i32 with one of add, mul, minsi, minui, maxsi, maxui, and, or, xor, found maxnumf}}
  %r = vector.contract {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<maxnumf>} %x, %y, %z : vector<2x3xi32>, vector<3x4xi32> into vector<2x4xi32>
  func.return %r : vector<2x4xi32>
}

// -----

func.func @f(%x: vector<2x3xf32>, %y: vector<3x4xf32>, %z: vector<2x4xf32>) -> vector<2x4xf32> {
  // expected-error @below {{'vector.contract' expects iterator_types in its attributes}}
  %r = vector.contract {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>]} %x, %y, %z : vector<2x3xf32>, vector<3x4xf32> into vector<2x4xf32>
  func.return %r : vector<2x4xf32>
}

// -----

func.func @f(%x: vector<2x3xf32>, %y: vector<3x4xf32>, %z: vector<2x4xf32>, %m: vector<2x3xi1>) -> vector<2x4xf32> {
  // expected-error @below {{'vector.contract' expects 3 operands (lhs, rhs, acc; no masks), found 4}}
  %r = vector.contract {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]} %x, %y, %z, %m : vector<2x3xf32>, vector<3x4xf32> into vector<2x4xf32>
  func.return %r : vector<2x4xf32>
}

// -----

func.func @f(%x: vector<2x3xf32>, %y: vector<3x4xf32>, %z: vector<2x4xf32>) -> vector<2x4xf16> {
  // expected-error @below {{'vector.contract' expects a result of the accumulator's type vector<2x4xf32>, found vector<2x4xf16>}}
  %r = "vector.contract"(%x, %y, %z) <{indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>}> : (vector<2x3xf32>, vector<3x4xf32>, vector<2x4xf32>) -> vector<2x4xf16>
  func.return %r : vector<2x4xf16>
}
