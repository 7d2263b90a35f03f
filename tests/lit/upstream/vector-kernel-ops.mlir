// vector ops in a kernel, one row per thread t: v = a (a[i] = 2i, a transfer_read of 8 lanes)
// times t, as a 2x4 vector whose rows are swapped (extract and insert of rows) and whose first
// element is then v[t] (a dynamic extract); the second row's bits (vector.bitcast), reversed
// (vector.shuffle), reduced by maxsi and by or with t; the first row's float sum as i32.
// Checked against numpy: sw = concat(g[1], g[0]) with sw[0] = a[t]; bits = (a * t)[4:].view(i32),
// max(bits), or.reduce(bits) | t, int(sum((a * t)[:4])).
// RUN: gpu-run %s --provider interp | filecheck %s
// RUN: gpu-run %s --provider cpu | filecheck %s

// CHECK:      Unranked Memref base@ = {{0x[0-9a-f]+}} rank = 2 offset = 0 sizes = [4, 8] strides = [8, 1] data =
// CHECK-NEXT: {{\[}}[0,   0,   0,   0,   0,   0,   0,   0],
// CHECK-NEXT:  [2,   10,   12,   14,   0,   2,   4,   6],
// CHECK-NEXT:  [4,   20,   24,   28,   0,   4,   8,   12],
// CHECK-NEXT:  [6,   30,   36,   42,   0,   6,   12,   18]]
// CHECK-NEXT: Unranked Memref base@ = {{0x[0-9a-f]+}} rank = 2 offset = 0 sizes = [4, 4] strides = [4, 1] data =
// CHECK-NEXT: {{\[}}[0,   0,   0,   0],
// CHECK-NEXT:  [1096810496,   1096810497,   12,   1],
// CHECK-NEXT:  [1105199104,   1105199106,   24,   2],
// CHECK-NEXT:  [1109917696,   1140326403,   36,   3]]

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @ops(%a: memref<8xf32>, %o: memref<4x8xf32>, %q: memref<4x4xi32>) kernel {
      %t = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %pad = arith.constant 0.0 : f32
      %v = vector.transfer_read %a[%c0], %pad {in_bounds = [true]} : memref<8xf32>, vector<8xf32>
      %ti = arith.index_cast %t : index to i32
      %tf = arith.sitofp %ti : i32 to f32
      %tb = vector.broadcast %tf : f32 to vector<8xf32>
      %m = arith.mulf %v, %tb : vector<8xf32>
      %g = vector.shape_cast %m : vector<8xf32> to vector<2x4xf32>
      %r0 = vector.extract %g[0] : vector<4xf32> from vector<2x4xf32>
      %r1 = vector.extract %g[1] : vector<4xf32> from vector<2x4xf32>
      %sw = vector.insert %r0, %g [1] : vector<4xf32> into vector<2x4xf32>
      %sw2 = vector.insert %r1, %sw [0] : vector<4xf32> into vector<2x4xf32>
      %el = vector.extract %v[%t] : f32 from vector<8xf32>
      %sw3 = vector.insert %el, %sw2 [0, 0] : f32 into vector<2x4xf32>
      %flat = vector.shape_cast %sw3 : vector<2x4xf32> to vector<8xf32>
      vector.transfer_write %flat, %o[%t, %c0] {in_bounds = [true]} : vector<8xf32>, memref<4x8xf32>
      %bits = vector.bitcast %r1 : vector<4xf32> to vector<4xi32>
      %sh = vector.shuffle %bits, %bits [3, 2, 1, 0] : vector<4xi32>, vector<4xi32>
      %mx = vector.reduction <maxsi>, %sh : vector<4xi32> into i32
      %or = vector.reduction <or>, %sh, %ti : vector<4xi32> into i32
      %fs = vector.reduction <add>, %r0 : vector<4xf32> into f32
      %fsi = arith.fptosi %fs : f32 to i32
      %res = vector.from_elements %mx, %or, %fsi, %ti : vector<4xi32>
      vector.store %res, %q[%t, %c0] : memref<4x4xi32>, vector<4xi32>
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
    %a = memref.alloc() : memref<8xf32>
    %o = memref.alloc() : memref<4x8xf32>
    %q = memref.alloc() : memref<4x4xi32>
    scf.for %i = %c0 to %c8 step %c1 {
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f32
      %g = arith.addf %f, %f : f32
      memref.store %g, %a[%i] : memref<8xf32>
    }
    %da = gpu.alloc() : memref<8xf32>
    %do = gpu.alloc() : memref<4x8xf32>
    %dq = gpu.alloc() : memref<4x4xi32>
    gpu.memcpy %da, %a : memref<8xf32>, memref<8xf32>
    gpu.launch_func @kernels::@ops blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%da : memref<8xf32>, %do : memref<4x8xf32>, %dq : memref<4x4xi32>)
    gpu.memcpy %o, %do : memref<4x8xf32>, memref<4x8xf32>
    gpu.memcpy %q, %dq : memref<4x4xi32>, memref<4x4xi32>
    %ho = memref.cast %o : memref<4x8xf32> to memref<*xf32>
    %hq = memref.cast %q : memref<4x4xi32> to memref<*xi32>
    call @printMemrefF32(%ho) : (memref<*xf32>) -> ()
    call @printMemrefI32(%hq) : (memref<*xi32>) -> ()
    return
  }
}
