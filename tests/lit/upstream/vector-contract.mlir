// vector.contract in a kernel, one work-item per t in 0..3, with a[i][k] = (8i + k)/4 - 3
// (4x8 f16) and b[k][j] = (k - 2j)/2 (8x4 f16):
// - rows 4t..4t+3 of %o: d = a @ b + t (f16 x f16 into f32, matmul maps, kind add), then
//   -(d + t) (arith on vectors, imported lane by lane);
// - row t of %q: max(-t, max_k ia[t][k] * ib[k][j]) for each j, with ia[i][k] = 8i + k - 12
//   and ib[k][j] = k - 2j (i16), ib read transposed (permutation_map), kind maxsi, the i16
//   factors sign-extended into i32;
// - %r[t]: 0.5 + sum_k a[t][k] * a[t][k] (every dimension reduced: a scalar accumulator).
// The CHECK lines are numpy's (tests/test_vector_contract.py computes them again).
// RUN: gpu-run %s --provider interp | filecheck %s
// RUN: gpu-run %s --provider cpu | filecheck %s

// CHECK:      Unranked Memref base@ = {{0x[0-9a-f]+}} rank = 2 offset = 0 sizes = [16, 4] strides = [4, 1] data =
// CHECK-NEXT: {{\[}}[24.5,   7.5,   -9.5,   -26.5],
// CHECK-NEXT:  [-3.5,   -4.5,   -5.5,   -6.5],
// CHECK-NEXT:  [-31.5,   -16.5,   -1.5,   13.5],
// CHECK-NEXT:  [-59.5,   -28.5,   2.5,   33.5],
// CHECK-NEXT:  [22.5,   5.5,   -11.5,   -28.5],
// CHECK-NEXT:  [-5.5,   -6.5,   -7.5,   -8.5],
// CHECK-NEXT:  [-33.5,   -18.5,   -3.5,   11.5],
// CHECK-NEXT:  [-61.5,   -30.5,   0.5,   31.5],
// CHECK-NEXT:  [20.5,   3.5,   -13.5,   -30.5],
// CHECK-NEXT:  [-7.5,   -8.5,   -9.5,   -10.5],
// CHECK-NEXT:  [-35.5,   -20.5,   -5.5,   9.5],
// CHECK-NEXT:  [-63.5,   -32.5,   -1.5,   29.5],
// CHECK-NEXT:  [18.5,   1.5,   -15.5,   -32.5],
// CHECK-NEXT:  [-9.5,   -10.5,   -11.5,   -12.5],
// CHECK-NEXT:  [-37.5,   -22.5,   -7.5,   7.5],
// CHECK-NEXT:  [-65.5,   -34.5,   -3.5,   27.5]]
// CHECK-NEXT: Unranked Memref base@ = {{0x[0-9a-f]+}} rank = 2 offset = 0 sizes = [4, 4] strides = [4, 1] data =
// CHECK-NEXT: {{\[}}[0,   24,   48,   72],
// CHECK-NEXT:  [21,   15,   16,   24],
// CHECK-NEXT:  [77,   55,   33,   11],
// CHECK-NEXT:  [133,   95,   57,   19]]
// CHECK-NEXT: Unranked Memref base@ = {{0x[0-9a-f]+}} rank = 1 offset = 0 sizes = [4] strides = [1] data =
// CHECK-NEXT: {{\[}}39.25,  3.25,  31.25,  123.25]

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @contract(%a: memref<4x8xf16>, %b: memref<8x4xf16>, %o: memref<16x4xf32>, %q: memref<4x4xi32>, %r: memref<4xf32>, %ia: memref<4x8xi16>, %ib: memref<8x4xi16>) kernel {
      %t = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %pad = arith.constant 0.0 : f16
      %va = vector.transfer_read %a[%c0, %c0], %pad {in_bounds = [true, true]} : memref<4x8xf16>, vector<4x8xf16>
      %vb = vector.transfer_read %b[%c0, %c0], %pad {in_bounds = [true, true]} : memref<8x4xf16>, vector<8x4xf16>
      %ti = arith.index_cast %t : index to i32
      %tf = arith.sitofp %ti : i32 to f32
      %acc = vector.broadcast %tf : f32 to vector<4x4xf32>
      %d = vector.contract {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %va, %vb, %acc : vector<4x8xf16>, vector<8x4xf16> into vector<4x4xf32>
      %e = arith.addf %d, %acc : vector<4x4xf32>
      %f = arith.negf %e : vector<4x4xf32>
      %row = arith.muli %t, %c4 : index
      vector.transfer_write %f, %o[%row, %c0] {in_bounds = [true, true]} : vector<4x4xf32>, memref<16x4xf32>
      %at = vector.transfer_read %a[%t, %c0], %pad {in_bounds = [true]} : memref<4x8xf16>, vector<8xf16>
      %ipad = arith.constant 0 : i16
      %iat = vector.transfer_read %ia[%t, %c0], %ipad {in_bounds = [true]} : memref<4x8xi16>, vector<8xi16>
      %ibt = vector.transfer_read %ib[%c0, %c0], %ipad {in_bounds = [true, true], permutation_map = affine_map<(k, j) -> (j, k)>} : memref<8x4xi16>, vector<4x8xi16>
      %nt = arith.subi %c0, %t : index
      %nti = arith.index_cast %nt : index to i32
      %qacc = vector.broadcast %nti : i32 to vector<4xi32>
      %qm = vector.contract {indexing_maps = [affine_map<(j, k) -> (k)>, affine_map<(j, k) -> (j, k)>, affine_map<(j, k) -> (j)>], iterator_types = ["parallel", "reduction"], kind = #vector.kind<maxsi>} %iat, %ibt, %qacc : vector<8xi16>, vector<4x8xi16> into vector<4xi32>
      vector.transfer_write %qm, %q[%t, %c0] {in_bounds = [true]} : vector<4xi32>, memref<4x4xi32>
      %half = arith.constant 0.5 : f32
      %dot = vector.contract {indexing_maps = [affine_map<(k) -> (k)>, affine_map<(k) -> (k)>, affine_map<(k) -> ()>], iterator_types = ["reduction"], kind = #vector.kind<add>} %at, %at, %half : vector<8xf16>, vector<8xf16> into f32
      memref.store %dot, %r[%t] : memref<4xf32>
      gpu.return
    }
  }
  func.func private @printMemrefF32(memref<*xf32>)
  func.func private @printMemrefI32(memref<*xi32>)
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %quarter = arith.constant 0.25 : f16
    %half = arith.constant 0.5 : f16
    %three = arith.constant 3.0 : f16
    %a = memref.alloc() : memref<4x8xf16>
    %b = memref.alloc() : memref<8x4xf16>
    %o = memref.alloc() : memref<16x4xf32>
    %q = memref.alloc() : memref<4x4xi32>
    %r = memref.alloc() : memref<4xf32>
    %ia = memref.alloc() : memref<4x8xi16>
    %ib = memref.alloc() : memref<8x4xi16>
    scf.for %i = %c0 to %c4 step %c1 {
      scf.for %k = %c0 to %c8 step %c1 {
        %i8 = arith.muli %i, %c8 : index
        %n = arith.addi %i8, %k : index
        %ni = arith.index_cast %n : index to i32
        %nf = arith.sitofp %ni : i32 to f16
        %x = arith.mulf %nf, %quarter : f16
        %y = arith.subf %x, %three : f16
        memref.store %y, %a[%i, %k] : memref<4x8xf16>
        %j2 = arith.addi %i, %i : index
        %m = arith.subi %k, %j2 : index
        %mi = arith.index_cast %m : index to i32
        %mf = arith.sitofp %mi : i32 to f16
        %z = arith.mulf %mf, %half : f16
        memref.store %z, %b[%k, %i] : memref<8x4xf16>
        %c12 = arith.constant 12 : index
        %n12 = arith.subi %n, %c12 : index
        %n16 = arith.index_cast %n12 : index to i16
        memref.store %n16, %ia[%i, %k] : memref<4x8xi16>
        %m16 = arith.index_cast %m : index to i16
        memref.store %m16, %ib[%k, %i] : memref<8x4xi16>
      }
    }
    %da = gpu.alloc() : memref<4x8xf16>
    %db = gpu.alloc() : memref<8x4xf16>
    %do = gpu.alloc() : memref<16x4xf32>
    %dq = gpu.alloc() : memref<4x4xi32>
    %dr = gpu.alloc() : memref<4xf32>
    %dia = gpu.alloc() : memref<4x8xi16>
    %dib = gpu.alloc() : memref<8x4xi16>
    gpu.memcpy %dia, %ia : memref<4x8xi16>, memref<4x8xi16>
    gpu.memcpy %dib, %ib : memref<8x4xi16>, memref<8x4xi16>
    gpu.memcpy %da, %a : memref<4x8xf16>, memref<4x8xf16>
    gpu.memcpy %db, %b : memref<8x4xf16>, memref<8x4xf16>
    gpu.launch_func @kernels::@contract blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%da : memref<4x8xf16>, %db : memref<8x4xf16>, %do : memref<16x4xf32>, %dq : memref<4x4xi32>, %dr : memref<4xf32>, %dia : memref<4x8xi16>, %dib : memref<8x4xi16>)
    gpu.memcpy %o, %do : memref<16x4xf32>, memref<16x4xf32>
    gpu.memcpy %q, %dq : memref<4x4xi32>, memref<4x4xi32>
    gpu.memcpy %r, %dr : memref<4xf32>, memref<4xf32>
    %ho = memref.cast %o : memref<16x4xf32> to memref<*xf32>
    %hq = memref.cast %q : memref<4x4xi32> to memref<*xi32>
    %hr = memref.cast %r : memref<4xf32> to memref<*xf32>
    call @printMemrefF32(%ho) : (memref<*xf32>) -> ()
    call @printMemrefI32(%hq) : (memref<*xi32>) -> ()
    call @printMemrefF32(%hr) : (memref<*xf32>) -> ()
    return
  }
}
