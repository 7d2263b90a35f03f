// RUN: gpu-opt %s -t 'ptx{sm=80}' > %t.tile.ptx
// RUN: ptxas -arch=sm_80 %t.tile.ptx -o %t.tile.cubin
// RUN: filecheck %s < %t.tile.ptx
// RUN: gpu-opt %S/../upstream/vector-contract.mlir -t 'ptx{sm=80}' > %t.run.ptx
// RUN: ptxas -arch=sm_80 %t.run.ptx -o %t.run.cubin

// vector.contract on NVPTX: a 16x16x16 f16 tile product per work-item (each block its own
// tile of %a, %b and %c), then elementwise arith on the tile, and the kernels of the run test
// (f16 into f32, i16 into i32 with <maxsi>, a dot product into a scalar), assembled for sm_80.
// The tile's 4096 multiply-adds are 16 steps of whole-tile vector operations in the LLVM IR,
// which NVPTX splits into paired f16 instructions.

// CHECK: .visible .entry tile(
// CHECK: mul.rn.f16x2
// CHECK: add.rn.f16x2

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @tile(%a: memref<64x16xf16>, %b: memref<64x16xf16>, %c: memref<64x16xf16>) kernel {
      %g = gpu.block_id x
      %c16 = arith.constant 16 : index
      %c0 = arith.constant 0 : index
      %row = arith.muli %g, %c16 : index
      %zero = arith.constant 0.0 : f16
      %x = vector.transfer_read %a[%row, %c0], %zero {in_bounds = [true, true]} : memref<64x16xf16>, vector<16x16xf16>
      %y = vector.transfer_read %b[%row, %c0], %zero {in_bounds = [true, true]} : memref<64x16xf16>, vector<16x16xf16>
      %z = vector.transfer_read %c[%row, %c0], %zero {in_bounds = [true, true]} : memref<64x16xf16>, vector<16x16xf16>
      %p = vector.contract {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %x, %y, %z : vector<16x16xf16>, vector<16x16xf16> into vector<16x16xf16>
      %d = arith.subf %z, %p : vector<16x16xf16>
      %n = arith.negf %d : vector<16x16xf16>
      vector.transfer_write %n, %c[%row, %c0] {in_bounds = [true, true]} : vector<16x16xf16>, memref<64x16xf16>
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %a = gpu.alloc() : memref<64x16xf16>
    %b = gpu.alloc() : memref<64x16xf16>
    %c = gpu.alloc() : memref<64x16xf16>
    gpu.launch_func @kernels::@tile blocks in (%c4, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<64x16xf16>, %b : memref<64x16xf16>, %c : memref<64x16xf16>)
    return
  }
}
