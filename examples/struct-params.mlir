// A kernel that takes a parameter struct by value: {scale: f32, bias: f32, n: i32}.
// The host builds it (scale 2, bias 0.5, n 6) with llvm.mlir.undef + llvm.insertvalue and
// launches `out[i] = a[i] * scale + bias` for i < n, a = 1..8, on 2 groups of 4 items: 8
// work-items, so the last two elements of out keep their initial value, -1. main prints out
// and returns out[0] + ... + out[7] = 43:
//
//   2.50, 4.50, 6.50, 8.50, 10.50, 12.50, -1.00, -1.00,
//   43.0
//
//   gpu-run examples/struct-params.mlir --provider cpu
//   gpu-opt examples/struct-params.mlir -t ptx    # .param .align 4 .b8 affine_param_0[12]

!params = !llvm.struct<(f32, f32, i32)>
!vec = !mem.array<8 x f32>

func.func @affine(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
                  %group: index, %item: index, %p: !params,
                  %a: !mem.ptr<!vec, 1>, %out: !mem.ptr<!vec, 1>)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
  %scale = llvm.extractvalue %p[0] : !params
  %bias = llvm.extractvalue %p[1] : !params
  %n32 = llvm.extractvalue %p[2] : !params
  %n = arith.index_cast %n32 : i32 to index
  %c4 = arith.constant 4 : index
  %base = arith.muli %group, %c4 : index
  %i = arith.addi %base, %item : index
  %inside = arith.cmpi slt, %i, %n : index
  %r1 = scf.if %inside -> (!mem.M<1>) {
    %pa = mem.lea %a, %i : !mem.ptr<!vec, 1>
    %x1, %x = mem.load %m1, %pa : !mem.ptr<f32, 1>
    %ax = arith.mulf %x, %scale : f32
    %y = arith.addf %ax, %bias : f32
    %po = mem.lea %out, %i : !mem.ptr<!vec, 1>
    %y1 = mem.store %x1, %po, %y : !mem.ptr<f32, 1>
    scf.yield %y1 : !mem.M<1>
  } else {
    scf.yield %m1 : !mem.M<1>
  }
  func.return %r1, %m3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}

func.func @main(%m: !mem.M<0>) -> (!mem.M<0>, f32) {
  %scale = arith.constant 2.0 : f32
  %bias = arith.constant 0.5 : f32
  %n = arith.constant 6 : i32
  %u = llvm.mlir.undef : !params
  %s0 = llvm.insertvalue %scale, %u[0] : !params
  %s1 = llvm.insertvalue %bias, %s0[1] : !params
  %params = llvm.insertvalue %n, %s1[2] : !params
  %a0, %a = buffer.init %m dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]> : tensor<8xf32>
  %minus1 = arith.constant -1.0 : f32
  %b0, %out = buffer.lit %a0, %minus1 : f32 -> !buffer.buf<8xf32>
  %m0, %m1, %m4 = gpu.init %b0
  %c0, %c1, %da = gpu.buf_alloc_copy %m0, %m1, %a : !buffer.buf<8xf32> -> !mem.ptr<!vec, 1>
  %d0, %d1, %dout = gpu.buf_alloc_copy %c0, %c1, %out : !buffer.buf<8xf32> -> !mem.ptr<!vec, 1>
  %stream = gpu.default_stream
  %two = arith.constant 2 : index
  %four = arith.constant 4 : index
  %l0, %l1, %l4 = gpu.launch @affine grid(%two, %four) stream(%stream) mems(%d0, %d1, %m4)
      args(%params, %da, %dout) : (!params, !mem.ptr<!vec, 1>, !mem.ptr<!vec, 1>)
  %e0, %e1 = gpu.buf_copy_to_host %l0, %l1, %dout -> %out : !mem.ptr<!vec, 1> -> !buffer.buf<8xf32>
  %f1 = mem.free %e1, %da : !mem.ptr<!vec, 1>
  %g1 = mem.free %f1, %dout : !mem.ptr<!vec, 1>
  %h0 = gpu.deinit %e0, %g1, %l4
  %p0 = buffer.print %h0, %out : !buffer.buf<8xf32>
  %zero = arith.constant 0.0 : f32
  %lb = arith.constant 0 : index
  %eight = arith.constant 8 : index
  %one = arith.constant 1 : index
  %q0, %sum = scf.for %k = %lb to %eight step %one iter_args(%t = %p0, %acc = %zero) -> (!mem.M<0>, f32) {
    %t1, %v = buffer.read %t, %out[%k] : !buffer.buf<8xf32>
    %acc1 = arith.addf %acc, %v : f32
    scf.yield %t1, %acc1 : !mem.M<0>, f32
  }
  func.return %q0, %sum : !mem.M<0>, f32
}
