// RUN: gpu-opt %S/../run/views-fusion.mlir -p fuse-map-reduce | filecheck %s

// Views and fusion: a producer that reads a view fuses (the fused op reads the view, through
// the producer's map composed with the consumer's read; t is read once for both); a consumer
// that reads a view of the producer's output does not (the view op is another use of it).

// CHECK:      %t = buffer.transpose %a [1, 0]
// CHECK-NOT:  %y = btensor.map_reduce
// CHECK:      %m2, %z = btensor.map_reduce %m0 ins(%t : !buffer.buf<3x2xf32, strided<[1, 3]>>) init(%zero : f32) {{{.*}} maps = [affine_map<(d0, d1) -> (d0, d1)>]
// CHECK-NEXT:   ^bb0(%acc: f32, %v: f32):
// CHECK-NEXT:     %two = arith.constant 2.000000e+00 : f32
// CHECK-NEXT:     %r = arith.mulf %v, %two : f32
// CHECK-NEXT:     %s = arith.addf %r, %v : f32
// CHECK-NEXT:     btensor.yield %s : f32
// CHECK:      %zt = buffer.transpose %z [1, 0]
// CHECK-NEXT: %m3, %w = btensor.map_reduce %m2 ins(%zt : !buffer.buf<2x3xf32, strided<[1, 2]>>)
