// A map-reduce over a dynamic view stays on the CPU path (lower-btensor-map-reduce warns: the
// kernel's index maps are static), reading the view through buffer-lower-ptr's run-time index
// arithmetic; the map-reduce that makes its storage still runs on the GPU path.
// a = [[1, 2, 3], [4, 5, 6]], y = a·a = [[1, 4, 9], [16, 25, 36]]; for each row i the sum of
// the row's last two elements y[i, 1:3]: [4 + 9, 25 + 36] = [13, 61] (by hand), then the sum
// of the doubled row: [26, 122]. The map that doubles reads the dynamic view, so it stays on the
// CPU path, and fuse-map-reduce does not fuse it into the sum (which is lowered: fusing would
// move work between the paths). The IR: tests/lit/passes/lower-btensor-map-reduce-dynamic-views.mlir.
// RUN: gpu-run %s --provider interp 2>&1 | filecheck %s
// RUN: gpu-run %s --provider cpu 2>&1 | filecheck %s
// RUN: gpu-run %s --provider interp -p btensor-lower-map-reduce,buffer-lower-ptr 2>&1 | filecheck %s --check-prefix=NUMBERS

// CHECK:      views-dynamic-map-reduce.mlir:43:5: warning: 'btensor.map_reduce' reads the view !buffer.buf<1x2xf32, strided<[3, 1], offset: ?>>, whose layout is only known at run time (no kernel index map for it), skipping GPU lowering
// CHECK:      views-dynamic-map-reduce.mlir:51:5: warning: 'btensor.map_reduce' reads the view !buffer.buf<1x2xf32, strided<[3, 1], offset: ?>>, whose layout is only known at run time (no kernel index map for it), skipping GPU lowering
// CHECK-NOT:  warning
// NUMBERS-NOT: warning
// NUMBERS:    13.00,
// NUMBERS-NEXT: 26.00,
// NUMBERS-NEXT: 61.00,
// NUMBERS-NEXT: 122.00,
// NUMBERS-EMPTY:
// CHECK:      13.00,
// CHECK-NEXT: 26.00,
// CHECK-NEXT: 61.00,
// CHECK-NEXT: 122.00,
// CHECK-EMPTY:

func.func @main(%m: !mem.M<0>) -> !mem.M<0> {
  %m0, %a = buffer.init %m dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %zero = arith.constant 0.0 : f32
  %m1, %y = btensor.map_reduce %m0 ins(%a : !buffer.buf<2x3xf32>) init(%zero : f32)
      {out_rank = 2 : i64, shape = array<i64: 2, 3>, maps = [affine_map<(i, j) -> (i, j)>],
      out_map = affine_map<(i, j) -> (i, j)>} combiner {
    ^bb0(%acc: f32, %v: f32):
      %r = arith.mulf %v, %v : f32
      btensor.yield %r : f32
  } : !buffer.buf<2x3xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %m2 = scf.for %i = %c0 to %c2 step %c1 iter_args(%t = %m1) -> (!mem.M<0>) {
    %row = buffer.subview %y[%i, 1] [1, 2] [1, 1] : !buffer.buf<2x3xf32> to !buffer.buf<1x2xf32, strided<[3, 1], offset: ?>>
    %t1, %s = btensor.map_reduce %t ins(%row : !buffer.buf<1x2xf32, strided<[3, 1], offset: ?>>) init(%zero : f32)
        {out_rank = 1 : i64, shape = array<i64: 1, 2>, maps = [affine_map<(i, j) -> (i, j)>],
        out_map = affine_map<(i) -> (i)>} combiner {
      ^bb0(%acc: f32, %v: f32):
        %r = arith.addf %acc, %v : f32
        btensor.yield %r : f32
    } : !buffer.buf<1xf32>
    %t2 = buffer.print %t1, %s : !buffer.buf<1xf32>
    %t3, %d = btensor.map_reduce %t2 ins(%row : !buffer.buf<1x2xf32, strided<[3, 1], offset: ?>>) init(%zero : f32)
        {out_rank = 2 : i64, shape = array<i64: 1, 2>, maps = [affine_map<(i, j) -> (i, j)>],
        out_map = affine_map<(i, j) -> (i, j)>} combiner {
      ^bb0(%acc: f32, %v: f32):
        %r = arith.addf %v, %v : f32
        btensor.yield %r : f32
    } : !buffer.buf<1x2xf32>
    %t4, %s2 = btensor.map_reduce %t3 ins(%d : !buffer.buf<1x2xf32>) init(%zero : f32)
        {out_rank = 1 : i64, shape = array<i64: 1, 2>, maps = [affine_map<(i, j) -> (i, j)>],
        out_map = affine_map<(i) -> (i)>} combiner {
      ^bb0(%acc: f32, %v: f32):
        %r = arith.addf %acc, %v : f32
        btensor.yield %r : f32
    } : !buffer.buf<1xf32>
    %t5 = buffer.print %t4, %s2 : !buffer.buf<1xf32>
    scf.yield %t5 : !mem.M<0>
  }
  func.return %m2 : !mem.M<0>
}
