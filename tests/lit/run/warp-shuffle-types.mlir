// gpu.shuffle on every type it takes (i32, i64, index, f32, f64): 40 items (a full warp and
// 8 lanes), each reads its right neighbour ("down" by 1, width 32); the last lane of each warp
// keeps its own value. Item i writes the sum of what it read, as f64.
// RUN: gpu-run %s --provider interp | filecheck %s
// RUN: gpu-run %s --provider cpu | filecheck %s
// RUN: env GPUIR_CPU_INDEX_BITWIDTH=32 gpu-run %s --provider cpu | filecheck %s
// CHECK:      0: 8589934595.5
// CHECK-NEXT: 30: 266287972460.5
// CHECK-NEXT: 31: 266287972460.5
// CHECK-NEXT: 32: 283467841651.5
// CHECK-NEXT: 39: 335007449224.5
// CHECK-EMPTY:

func.func @kernel(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
                  %group: index, %item: index, %out: !mem.ptr<!mem.array<40 x f64>, 1>)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
  %one = arith.constant 1 : i32
  %w = arith.constant 32 : i32
  %x = arith.index_cast %item : index to i32
  %y = arith.index_cast %item : index to i64
  %big = arith.constant 8589934592 : i64
  %yb = arith.muli %y, %big : i64
  %f = arith.sitofp %x : i32 to f32
  %d = arith.sitofp %x : i32 to f64
  %half = arith.constant 0.5 : f64
  %dh = arith.mulf %d, %half : f64
  %a1, %a3, %rx, %k1 = gpu.shuffle "down" %m1, %m3, %x, %one, %w : i32
  %b1, %b3, %ry, %k2 = gpu.shuffle "down" %a1, %a3, %yb, %one, %w : i64
  %c1, %c3, %ri, %k3 = gpu.shuffle "down" %b1, %b3, %item, %one, %w : index
  %d1, %d3, %rf, %k4 = gpu.shuffle "down" %c1, %c3, %f, %one, %w : f32
  %e1, %e3, %rd, %k5 = gpu.shuffle "down" %d1, %d3, %dh, %one, %w : f64
  %sx = arith.sitofp %rx : i32 to f64
  %sy = arith.sitofp %ry : i64 to f64
  %ii = arith.index_cast %ri : index to i64
  %si = arith.sitofp %ii : i64 to f64
  %sf = arith.extf %rf : f32 to f64
  %t1 = arith.addf %sx, %sy : f64
  %t2 = arith.addf %t1, %si : f64
  %t3 = arith.addf %t2, %sf : f64
  %t4 = arith.addf %t3, %rd : f64
  %p = mem.lea %out, %item : !mem.ptr<!mem.array<40 x f64>, 1>
  %f1 = mem.store %e1, %p, %t4 : !mem.ptr<f64, 1>
  func.return %f1, %e3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}

func.func @main(%m: !mem.M<0>) -> !mem.M<0> {
  %m0, %m1, %m4 = gpu.init %m
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c30 = arith.constant 30 : index
  %c31 = arith.constant 31 : index
  %c32 = arith.constant 32 : index
  %c39 = arith.constant 39 : index
  %c40 = arith.constant 40 : index
  %stream = gpu.default_stream
  %a1, %out = gpu.alloc.block %m1 : !mem.ptr<!mem.array<40 x f64>, 1>
  %l0, %l1, %l4 = gpu.launch @kernel grid(%c1, %c40) stream(%stream) mems(%m0, %a1, %m4)
      args(%out) : (!mem.ptr<!mem.array<40 x f64>, 1>)
  %h0, %host = mem.alloc %l0 : !mem.ptr<!mem.array<40 x f64>, 0>
  %b0, %b1 = gpu.copy_to_host.block %h0, %l1, %out -> %host : !mem.ptr<!mem.array<40 x f64>, 1> -> !mem.ptr<!mem.array<40 x f64>, 0>
  %p0 = mem.lea %host, %c0 : !mem.ptr<!mem.array<40 x f64>, 0>
  %q0, %v0 = mem.load %b0, %p0 : !mem.ptr<f64, 0>
  %p1 = mem.lea %host, %c30 : !mem.ptr<!mem.array<40 x f64>, 0>
  %q1, %v1 = mem.load %q0, %p1 : !mem.ptr<f64, 0>
  %p2 = mem.lea %host, %c31 : !mem.ptr<!mem.array<40 x f64>, 0>
  %q2, %v2 = mem.load %q1, %p2 : !mem.ptr<f64, 0>
  %p3 = mem.lea %host, %c32 : !mem.ptr<!mem.array<40 x f64>, 0>
  %q3, %v3 = mem.load %q2, %p3 : !mem.ptr<f64, 0>
  %p4 = mem.lea %host, %c39 : !mem.ptr<!mem.array<40 x f64>, 0>
  %q4, %v4 = mem.load %q3, %p4 : !mem.ptr<f64, 0>
  printf.print_format "0: {}\n30: {}\n31: {}\n32: {}\n39: {}\n", %v0 : f64, %v1 : f64, %v2 : f64, %v3 : f64, %v4 : f64
  %f1 = gpu.free.block %b1, %out : !mem.ptr<!mem.array<40 x f64>, 1>
  %f0 = mem.free %q4, %host : !mem.ptr<!mem.array<40 x f64>, 0>
  %done = gpu.deinit %f0, %f1, %l4
  func.return %done : !mem.M<0>
}
