// convert-vector-to-gpu's diagnostics: chains that MLIR's WMMA path converts but gpuir's matrix
// ops cannot run are an error at the op, not left as vector ops that every thread would run.
// RUN: gpu-opt %s --split-input-file --verify-diagnostics --upstream-pass=convert-vector-to-gpu --print-upstream

#map_a = affine_map<(d0, d1, d2) -> (d0, d2)>
#map_b = affine_map<(d0, d1, d2) -> (d2, d1)>
#map_c = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @k(%a: memref<32x8xf16>, %b: memref<8x32xf16>, %c: memref<32x32xf32>) {
  %c0 = arith.constant 0 : index
  %h0 = arith.constant 0.0 : f16
  %f0 = arith.constant 0.0 : f32
  // expected-error@+1 {{convert-vector-to-gpu: 'vector.transfer_read' makes a 32x8xf16 tile ("AOp") that gpuir's matrix ops cannot take: !gpu.fragment of kind "a" and f16 is 16x16, found 32x8}}
  %A = vector.transfer_read %a[%c0, %c0], %h0 {in_bounds = [true, true]} : memref<32x8xf16>, vector<32x8xf16>
  %B = vector.transfer_read %b[%c0, %c0], %h0 {in_bounds = [true, true]} : memref<8x32xf16>, vector<8x32xf16>
  %C = vector.transfer_read %c[%c0, %c0], %f0 {in_bounds = [true, true]} : memref<32x32xf32>, vector<32x32xf32>
  %D = vector.contract {indexing_maps = [#map_a, #map_b, #map_c], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %A, %B, %C : vector<32x8xf16>, vector<8x32xf16> into vector<32x32xf32>
  vector.transfer_write %D, %c[%c0, %c0] {in_bounds = [true, true]} : vector<32x32xf32>, memref<32x32xf32>
  return
}

// -----

#map_a = affine_map<(d0, d1, d2) -> (d0, d2)>
#map_b = affine_map<(d0, d1, d2) -> (d2, d1)>
#map_c = affine_map<(d0, d1, d2) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (0, d1)>
func.func @k(%a: memref<16x16xf16>, %c: memref<16x16xf32>) {
  %c0 = arith.constant 0 : index
  %h0 = arith.constant 0.0 : f16
  %f0 = arith.constant 0.0 : f32
  %A = vector.transfer_read %a[%c0, %c0], %h0 {in_bounds = [true, true]} : memref<16x16xf16>, vector<16x16xf16>
  // expected-error@+1 {{convert-vector-to-gpu: 'vector.transfer_read' broadcasts a row (a leadDimension of 0), which gpuir's matrix loads do not take: they read rows at least a row apart}}
  %B = vector.transfer_read %a[%c0, %c0], %h0 {in_bounds = [true, true], permutation_map = #row} : memref<16x16xf16>, vector<16x16xf16>
  %C = vector.transfer_read %c[%c0, %c0], %f0 {in_bounds = [true, true]} : memref<16x16xf32>, vector<16x16xf32>
  %D = vector.contract {indexing_maps = [#map_a, #map_b, #map_c], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %A, %B, %C : vector<16x16xf16>, vector<16x16xf16> into vector<16x16xf32>
  vector.transfer_write %D, %c[%c0, %c0] {in_bounds = [true, true]} : vector<16x16xf32>, memref<16x16xf32>
  return
}

// -----

#map_a = affine_map<(d0, d1, d2) -> (d0, d2)>
#map_bt = affine_map<(d0, d1, d2) -> (d1, d2)>
#map_c = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @k(%a: memref<16x16xf16>, %c: memref<16x16xf32>) {
  %c0 = arith.constant 0 : index
  %h0 = arith.constant 0.0 : f16
  %f0 = arith.constant 0.0 : f32
  %A = vector.transfer_read %a[%c0, %c0], %h0 {in_bounds = [true, true]} : memref<16x16xf16>, vector<16x16xf16>
  %B = vector.transfer_read %a[%c0, %c0], %h0 {in_bounds = [true, true]} : memref<16x16xf16>, vector<16x16xf16>
  %C = vector.transfer_read %c[%c0, %c0], %f0 {in_bounds = [true, true]} : memref<16x16xf32>, vector<16x16xf32>
  // expected-error@+1 {{convert-vector-to-gpu: 'vector.contract' is not the row-major matmul (maps (m, k), (k, n) -> (m, n), kind add): not supported (yet)}}
  %D = vector.contract {indexing_maps = [#map_a, #map_bt, #map_c], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %A, %B, %C : vector<16x16xf16>, vector<16x16xf16> into vector<16x16xf32>
  vector.transfer_write %D, %c[%c0, %c0] {in_bounds = [true, true]} : vector<16x16xf32>, memref<16x16xf32>
  return
}

// -----

#map_a = affine_map<(d0, d1, d2) -> (d0, d2)>
#map_b = affine_map<(d0, d1, d2) -> (d2, d1)>
#map_c = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @k(%a: memref<16x16xf16>, %c: memref<16x16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %h0 = arith.constant 0.0 : f16
  %f0 = arith.constant 0.0 : f32
  %A = vector.transfer_read %a[%c0, %c0], %h0 {in_bounds = [true, true]} : memref<16x16xf16>, vector<16x16xf16>
  %C = vector.transfer_read %c[%c0, %c0], %f0 {in_bounds = [true, true]} : memref<16x16xf32>, vector<16x16xf32>
  // expected-error@+1 {{convert-vector-to-gpu: 'scf.for' carries a matrix of a vector.contract's chain: not supported (yet)}}
  %S = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %C) -> (vector<16x16xf32>) {
    %D = vector.contract {indexing_maps = [#map_a, #map_b, #map_c], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %A, %A, %acc : vector<16x16xf16>, vector<16x16xf16> into vector<16x16xf32>
    scf.yield %D : vector<16x16xf32>
  }
  vector.transfer_write %S, %c[%c0, %c0] {in_bounds = [true, true]} : vector<16x16xf32>, memref<16x16xf32>
  return
}

// -----

#map_a = affine_map<(d0, d1, d2) -> (d0, d2)>
#map_b = affine_map<(d0, d1, d2) -> (d2, d1)>
#map_c = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @k(%a: memref<16x16xf16>, %c: memref<16x16xf32>) {
  %c0 = arith.constant 0 : index
  %h0 = arith.constant 0.0 : f16
  %f0 = arith.constant 0.0 : f32
  %A = vector.transfer_read %a[%c0, %c0], %h0 {in_bounds = [true, true]} : memref<16x16xf16>, vector<16x16xf16>
  %C = vector.transfer_read %c[%c0, %c0], %f0 {in_bounds = [true, true]} : memref<16x16xf32>, vector<16x16xf32>
  // expected-error@+1 {{convert-vector-to-gpu: 'vector.contract' needs a "BOp" matrix as operand 1, but the chain makes it a "AOp" one}}
  %D = vector.contract {indexing_maps = [#map_a, #map_b, #map_c], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %A, %A, %C : vector<16x16xf16>, vector<16x16xf16> into vector<16x16xf32>
  vector.transfer_write %D, %c[%c0, %c0] {in_bounds = [true, true]} : vector<16x16xf32>, memref<16x16xf32>
  return
}

// -----

#map_a = affine_map<(d0, d1, d2) -> (d0, d2)>
#map_b = affine_map<(d0, d1, d2) -> (d2, d1)>
#map_c = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @k(%a: memref<16x16xf16>, %c: memref<16x16xf16>) {
  %c0 = arith.constant 0 : index
  %h0 = arith.constant 0.0 : f16
  %A = vector.transfer_read %a[%c0, %c0], %h0 {in_bounds = [true, true]} : memref<16x16xf16>, vector<16x16xf16>
  %B = vector.transfer_read %a[%c0, %c0], %h0 {in_bounds = [true, true]} : memref<16x16xf16>, vector<16x16xf16>
  %C = vector.transfer_read %c[%c0, %c0], %h0 {in_bounds = [true, true]} : memref<16x16xf16>, vector<16x16xf16>
  %D = vector.contract {indexing_maps = [#map_a, #map_b, #map_c], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %A, %B, %C : vector<16x16xf16>, vector<16x16xf16> into vector<16x16xf16>
  // expected-error@+1 {{convert-vector-to-gpu: 'arith.addf' combines tiles that the chain makes as different matrices: !gpu.mma_matrix<16x16xf16, "COp">, !gpu.mma_matrix<16x16xf16, "AOp">}}
  %E = arith.addf %D, %A : vector<16x16xf16>
  vector.transfer_write %E, %c[%c0, %c0] {in_bounds = [true, true]} : vector<16x16xf16>, memref<16x16xf16>
  return
}
