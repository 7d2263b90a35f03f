// convert-vector-to-gpu (gpuir.ir.upstream.vector_to_gpu), as MLIR's pass of that name makes
// them: the vector ops of a vector.contract's chain become gpu.subgroup_mma ops, and the vector
// ops go; a chain that MLIR's WMMA path does not take stays as it is. (gpu-opt prints upstream
// ops generically.)
// RUN: gpu-opt %s --split-input-file --upstream-pass=convert-vector-to-gpu --print-upstream | filecheck %s

// Every op it converts: a transposed read (AOp), a read at an offset of a wider memref (BOp,
// the memref's row stride its leadDimension), a splat constant (COp), a broadcast, each
// elementwise kind, the store.
#map_a = affine_map<(d0, d1, d2) -> (d0, d2)>
#map_b = affine_map<(d0, d1, d2) -> (d2, d1)>
#map_c = affine_map<(d0, d1, d2) -> (d0, d1)>
#transpose = affine_map<(d0, d1) -> (d1, d0)>
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @chain(%a: memref<16x16xf16>, %b: memref<16x32xf16>, %c: memref<16x16xf32>, %x: f32) kernel {
      %c0 = arith.constant 0 : index
      %c16 = arith.constant 16 : index
      %h0 = arith.constant 0.0 : f16
      %A = vector.transfer_read %a[%c0, %c0], %h0 {in_bounds = [true, true], permutation_map = #transpose} : memref<16x16xf16>, vector<16x16xf16>
      %B = vector.transfer_read %b[%c0, %c16], %h0 {in_bounds = [true, true]} : memref<16x32xf16>, vector<16x16xf16>
      %C = arith.constant dense<1.0> : vector<16x16xf32>
      %D = vector.contract {indexing_maps = [#map_a, #map_b, #map_c], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %A, %B, %C : vector<16x16xf16>, vector<16x16xf16> into vector<16x16xf32>
      %X = vector.broadcast %x : f32 to vector<16x16xf32>
      %E = arith.maximumf %D, %X : vector<16x16xf32>
      %F = arith.minimumf %E, %X : vector<16x16xf32>
      %G = arith.divf %F, %X : vector<16x16xf32>
      %H = arith.mulf %G, %X : vector<16x16xf32>
      %I = arith.addf %H, %X : vector<16x16xf32>
      %J = arith.subf %I, %X : vector<16x16xf32>
      %K = arith.negf %J : vector<16x16xf32>
      vector.transfer_write %K, %c[%c0, %c0] {in_bounds = [true, true]} : vector<16x16xf32>, memref<16x16xf32>
      gpu.return
    }
  }
}

// CHECK:      ^bb0(%a: memref<16x16xf16>, %b: memref<16x32xf16>, %c: memref<16x16xf32>, %x: f32):
// CHECK-NEXT:   %c0 = arith.constant 0 : index
// CHECK-NEXT:   %c16 = arith.constant 16 : index
// CHECK-NEXT:   %h0 = arith.constant 0.000000e+00 : f16
// CHECK-NEXT:   %0 = "gpu.subgroup_mma_load_matrix"(%a, %c0, %c0) <{leadDimension = 16 : index, transpose}> : (memref<16x16xf16>, index, index) -> !gpu.mma_matrix<16x16xf16, "AOp">
// CHECK-NEXT:   %1 = "gpu.subgroup_mma_load_matrix"(%b, %c0, %c16) <{leadDimension = 32 : index}> : (memref<16x32xf16>, index, index) -> !gpu.mma_matrix<16x16xf16, "BOp">
// CHECK-NEXT:   %2 = arith.constant 1.000000e+00 : f32
// CHECK-NEXT:   %3 = "gpu.subgroup_mma_constant_matrix"(%2) : (f32) -> !gpu.mma_matrix<16x16xf32, "COp">
// CHECK-NEXT:   %4 = "gpu.subgroup_mma_compute"(%0, %1, %3) : (!gpu.mma_matrix<16x16xf16, "AOp">, !gpu.mma_matrix<16x16xf16, "BOp">, !gpu.mma_matrix<16x16xf32, "COp">) -> !gpu.mma_matrix<16x16xf32, "COp">
// CHECK-NEXT:   %5 = "gpu.subgroup_mma_constant_matrix"(%x) : (f32) -> !gpu.mma_matrix<16x16xf32, "COp">
// CHECK-NEXT:   %6 = "gpu.subgroup_mma_elementwise"(%4, %5) <{kind = "maxf"}> : (!gpu.mma_matrix<16x16xf32, "COp">, !gpu.mma_matrix<16x16xf32, "COp">) -> !gpu.mma_matrix<16x16xf32, "COp">
// CHECK-NEXT:   %7 = "gpu.subgroup_mma_elementwise"(%6, %5) <{kind = "minf"}> : (!gpu.mma_matrix<16x16xf32, "COp">, !gpu.mma_matrix<16x16xf32, "COp">) -> !gpu.mma_matrix<16x16xf32, "COp">
// CHECK-NEXT:   %8 = "gpu.subgroup_mma_elementwise"(%7, %5) <{kind = "divf"}> : (!gpu.mma_matrix<16x16xf32, "COp">, !gpu.mma_matrix<16x16xf32, "COp">) -> !gpu.mma_matrix<16x16xf32, "COp">
// CHECK-NEXT:   %9 = "gpu.subgroup_mma_elementwise"(%8, %5) <{kind = "mulf"}> : (!gpu.mma_matrix<16x16xf32, "COp">, !gpu.mma_matrix<16x16xf32, "COp">) -> !gpu.mma_matrix<16x16xf32, "COp">
// CHECK-NEXT:   %10 = "gpu.subgroup_mma_elementwise"(%9, %5) <{kind = "addf"}> : (!gpu.mma_matrix<16x16xf32, "COp">, !gpu.mma_matrix<16x16xf32, "COp">) -> !gpu.mma_matrix<16x16xf32, "COp">
// CHECK-NEXT:   %11 = "gpu.subgroup_mma_elementwise"(%10, %5) <{kind = "subf"}> : (!gpu.mma_matrix<16x16xf32, "COp">, !gpu.mma_matrix<16x16xf32, "COp">) -> !gpu.mma_matrix<16x16xf32, "COp">
// CHECK-NEXT:   %12 = "gpu.subgroup_mma_elementwise"(%11) <{kind = "negatef"}> : (!gpu.mma_matrix<16x16xf32, "COp">) -> !gpu.mma_matrix<16x16xf32, "COp">
// CHECK-NEXT:   "gpu.subgroup_mma_store_matrix"(%12, %c, %c0, %c0) <{leadDimension = 16 : index}> : (!gpu.mma_matrix<16x16xf32, "COp">, memref<16x16xf32>, index, index) -> ()
// CHECK-NEXT:   "gpu.return"() : () -> ()

// -----

// f16 accumulators, the accumulator read used by the contract and after it (a COp both), in
// a gpu.launch of the host code.
#map_a = affine_map<(d0, d1, d2) -> (d0, d2)>
#map_b = affine_map<(d0, d1, d2) -> (d2, d1)>
#map_c = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %h0 = arith.constant 0.0 : f16
  %a = gpu.alloc() : memref<16x16xf16>
  %c = gpu.alloc() : memref<16x16xf16>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %A = vector.transfer_read %a[%c0, %c0], %h0 {in_bounds = [true, true]} : memref<16x16xf16>, vector<16x16xf16>
    %B = vector.transfer_read %a[%c0, %c0], %h0 {in_bounds = [true, true]} : memref<16x16xf16>, vector<16x16xf16>
    %C = vector.transfer_read %c[%c0, %c0], %h0 {in_bounds = [true, true]} : memref<16x16xf16>, vector<16x16xf16>
    %D = vector.contract {indexing_maps = [#map_a, #map_b, #map_c], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %A, %B, %C : vector<16x16xf16>, vector<16x16xf16> into vector<16x16xf16>
    %E = arith.subf %C, %D : vector<16x16xf16>
    vector.transfer_write %E, %c[%c0, %c0] {in_bounds = [true, true]} : vector<16x16xf16>, memref<16x16xf16>
    gpu.terminator
  }
  return
}

// CHECK:      ^bb0(%bx: index, %by: index, %bz: index, %tx: index, %ty: index, %tz: index, %gx: index, %gy: index, %gz: index, %sx: index, %sy: index, %sz: index):
// CHECK-NEXT:   %0 = "gpu.subgroup_mma_load_matrix"(%a, %c0, %c0) <{leadDimension = 16 : index}> : (memref<16x16xf16>, index, index) -> !gpu.mma_matrix<16x16xf16, "AOp">
// CHECK-NEXT:   %1 = "gpu.subgroup_mma_load_matrix"(%a, %c0, %c0) <{leadDimension = 16 : index}> : (memref<16x16xf16>, index, index) -> !gpu.mma_matrix<16x16xf16, "BOp">
// CHECK-NEXT:   %2 = "gpu.subgroup_mma_load_matrix"(%c, %c0, %c0) <{leadDimension = 16 : index}> : (memref<16x16xf16>, index, index) -> !gpu.mma_matrix<16x16xf16, "COp">
// CHECK-NEXT:   %3 = "gpu.subgroup_mma_compute"(%0, %1, %2) : (!gpu.mma_matrix<16x16xf16, "AOp">, !gpu.mma_matrix<16x16xf16, "BOp">, !gpu.mma_matrix<16x16xf16, "COp">) -> !gpu.mma_matrix<16x16xf16, "COp">
// CHECK-NEXT:   %4 = "gpu.subgroup_mma_elementwise"(%2, %3) <{kind = "subf"}> : (!gpu.mma_matrix<16x16xf16, "COp">, !gpu.mma_matrix<16x16xf16, "COp">) -> !gpu.mma_matrix<16x16xf16, "COp">
// CHECK-NEXT:   "gpu.subgroup_mma_store_matrix"(%4, %c, %c0, %c0) <{leadDimension = 16 : index}> : (!gpu.mma_matrix<16x16xf16, "COp">, memref<16x16xf16>, index, index) -> ()
// CHECK-NEXT:   "gpu.terminator"() : () -> ()

// -----

// A chain that MLIR's WMMA path does not take stays as it is: this one (two contracts, through
// %B and %C) has an arith.maxnumf (not an elementwise kind of the matrix ops) and a read that
// may be out of bounds.
#map_a = affine_map<(d0, d1, d2) -> (d0, d2)>
#map_b = affine_map<(d0, d1, d2) -> (d2, d1)>
#map_c = affine_map<(d0, d1, d2) -> (d0, d1)>
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @left(%a: memref<16x16xf16>, %c: memref<16x16xf16>) kernel {
      %c0 = arith.constant 0 : index
      %h0 = arith.constant 0.0 : f16
      %A = vector.transfer_read %a[%c0, %c0], %h0 {in_bounds = [true, true]} : memref<16x16xf16>, vector<16x16xf16>
      %B = vector.transfer_read %a[%c0, %c0], %h0 {in_bounds = [true, true]} : memref<16x16xf16>, vector<16x16xf16>
      %C = vector.transfer_read %c[%c0, %c0], %h0 {in_bounds = [true, true]} : memref<16x16xf16>, vector<16x16xf16>
      %D = vector.contract {indexing_maps = [#map_a, #map_b, #map_c], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %A, %B, %C : vector<16x16xf16>, vector<16x16xf16> into vector<16x16xf16>
      %E = arith.maxnumf %D, %C : vector<16x16xf16>
      vector.transfer_write %E, %c[%c0, %c0] {in_bounds = [true, true]} : vector<16x16xf16>, memref<16x16xf16>
      %P = vector.transfer_read %a[%c0, %c0], %h0 : memref<16x16xf16>, vector<16x16xf16>
      %Q = vector.contract {indexing_maps = [#map_a, #map_b, #map_c], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %P, %B, %C : vector<16x16xf16>, vector<16x16xf16> into vector<16x16xf16>
      %R = arith.addf %P, %P : vector<16x16xf16>
      gpu.return
    }
  }
}

// CHECK:      %A = vector.transfer_read %a[%c0, %c0], %h0 {in_bounds = [true, true]} : memref<16x16xf16>, vector<16x16xf16>
// CHECK-NEXT: %B = vector.transfer_read %a[%c0, %c0], %h0 {in_bounds = [true, true]} : memref<16x16xf16>, vector<16x16xf16>
// CHECK-NEXT: %C = vector.transfer_read %c[%c0, %c0], %h0 {in_bounds = [true, true]} : memref<16x16xf16>, vector<16x16xf16>
// CHECK-NEXT: %D = vector.contract {{.*}} %A, %B, %C : vector<16x16xf16>, vector<16x16xf16> into vector<16x16xf16>
// CHECK-NEXT: %E = arith.maxnumf %D, %C : vector<16x16xf16>
// CHECK-NEXT: vector.transfer_write %E, %c[%c0, %c0] {in_bounds = [true, true]} : vector<16x16xf16>, memref<16x16xf16>
// CHECK-NEXT: %P = vector.transfer_read %a[%c0, %c0], %h0 : memref<16x16xf16>, vector<16x16xf16>
// CHECK-NEXT: %Q = vector.contract {{.*}} %P, %B, %C : vector<16x16xf16>, vector<16x16xf16> into vector<16x16xf16>
// CHECK-NEXT: %R = arith.addf %P, %P : vector<16x16xf16>
// CHECK-NEXT: "gpu.return"() : () -> ()
// CHECK-NOT:  subgroup_mma
