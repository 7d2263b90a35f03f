// Vectors in memory on the host: vector.load / store, transfer_read / transfer_write (padding
// past the end, a mask with in_bounds, a 2-d read, a column through permutation_map, a
// broadcast dimension), maskedload / maskedstore, each lane a load or store of its element.
// a[i] = i / 2, b[i][j] = 4i + j; the numbers follow by hand, and mlir-runner-22 prints the
// same lines for this program (lowered by mlir-opt-22's own vector-to-scf / vector-to-llvm).
// RUN: gpu-run %s --provider interp --upstream | filecheck %s --match-full-lines
// RUN: gpu-run %s --provider cpu --upstream | filecheck %s --match-full-lines

// CHECK:      ( 1, 1.5, 2, 2.5 )
// CHECK-NEXT: ( 3, 3.5, -1, -1 )
// CHECK-NEXT: ( 1, 1, 1, 0 )
// CHECK-NEXT: ( 0, 0.5, 1, -1 )
// CHECK-NEXT: ( ( 5, 6, 7, -1 ), ( 9, 10, 11, -1 ) )
// CHECK-NEXT: ( 2, 6, 10, -1 )
// CHECK-NEXT: ( 6, 6, 6, 6 )
// CHECK-NEXT: Unranked Memref base@ = {{0x[0-9a-f]+}} rank = 1 offset = 0 sizes = [8] strides = [1] data =
// CHECK-NEXT: {{\[}}0,  10,  11,  1.5,  2,  2.5,  10,  11]
// CHECK-NEXT: ( 2, 2.5, 12, 13 )
// CHECK-NEXT: Unranked Memref base@ = {{0x[0-9a-f]+}} rank = 1 offset = 0 sizes = [8] strides = [1] data =
// CHECK-NEXT: {{\[}}10,  11,  12,  13,  1.5,  2,  10,  11]

func.func private @printMemrefF32(memref<*xf32>)
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c6 = arith.constant 6 : index
  %c8 = arith.constant 8 : index
  %pad = arith.constant -1.0 : f32
  %half = arith.constant 0.5 : f32
  %a = memref.alloc() : memref<8xf32>
  %b = memref.alloc() : memref<3x4xf32>
  scf.for %i = %c0 to %c8 step %c1 {
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    %x = arith.mulf %f, %half : f32
    memref.store %x, %a[%i] : memref<8xf32>
  }
  scf.for %i = %c0 to %c3 step %c1 {
    scf.for %j = %c0 to %c4 step %c1 {
      %k = arith.muli %i, %c4 : index
      %l = arith.addi %k, %j : index
      %li = arith.index_cast %l : index to i32
      %f = arith.sitofp %li : i32 to f32
      memref.store %f, %b[%i, %j] : memref<3x4xf32>
    }
  }
  %v = vector.load %a[%c2] : memref<8xf32>, vector<4xf32>
  vector.print %v : vector<4xf32>
  %t = vector.transfer_read %a[%c6], %pad : memref<8xf32>, vector<4xf32>
  vector.print %t : vector<4xf32>
  %m = vector.create_mask %c3 : vector<4xi1>
  vector.print %m : vector<4xi1>
  %tm = vector.transfer_read %a[%c0], %pad, %m {in_bounds = [true]} : memref<8xf32>, vector<4xf32>
  vector.print %tm : vector<4xf32>
  %t2 = vector.transfer_read %b[%c1, %c1], %pad : memref<3x4xf32>, vector<2x4xf32>
  vector.print %t2 : vector<2x4xf32>
  %col = vector.transfer_read %b[%c0, %c2], %pad {permutation_map = affine_map<(d0, d1) -> (d0)>} : memref<3x4xf32>, vector<4xf32>
  vector.print %col : vector<4xf32>
  %bc = vector.transfer_read %b[%c1, %c2], %pad {in_bounds = [true], permutation_map = affine_map<(d0, d1) -> (0)>} : memref<3x4xf32>, vector<4xf32>
  vector.print %bc : vector<4xf32>
  %w = arith.constant dense<[10.0, 11.0, 12.0, 13.0]> : vector<4xf32>
  vector.transfer_write %w, %a[%c6] : vector<4xf32>, memref<8xf32>
  %km = vector.constant_mask [2] : vector<4xi1>
  vector.transfer_write %w, %a[%c1], %km : vector<4xf32>, memref<8xf32>
  %ac = memref.cast %a : memref<8xf32> to memref<*xf32>
  call @printMemrefF32(%ac) : (memref<*xf32>) -> ()
  %ml = vector.maskedload %a[%c4], %km, %w : memref<8xf32>, vector<4xi1>, vector<4xf32> into vector<4xf32>
  vector.print %ml : vector<4xf32>
  vector.maskedstore %a[%c3], %m, %v : memref<8xf32>, vector<4xi1>, vector<4xf32>
  vector.store %w, %a[%c0] : memref<8xf32>, vector<4xf32>
  call @printMemrefF32(%ac) : (memref<*xf32>) -> ()
  return
}
