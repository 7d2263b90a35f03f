// RUN: gpu-opt %S/../run/views-dynamic-map-reduce.mlir -p fuse-map-reduce,lower-btensor-map-reduce 2>/dev/null | filecheck %s
// RUN: gpu-opt %S/../run/views-dynamic-map-reduce.mlir -p fuse-map-reduce,lower-btensor-map-reduce 2>&1 >/dev/null | filecheck %s --check-prefix=WARN

// A map-reduce reading a dynamic view (`?` offset) stays on the CPU path: the kernel's index
// maps are static, so no map composes the view's layout. The op that writes the viewed buffer
// is lowered (launched, its output copied back for the view); the view op stays. The map %d
// that reads the view is not fused into the sum %s2 that reads its output (the sum is
// lowerable, the map not: fusing would move work between the paths); the sum is launched.

// WARN: views-dynamic-map-reduce.mlir:43:5: warning: 'btensor.map_reduce' reads the view !buffer.buf<1x2xf32, strided<[3, 1], offset: ?>>, whose layout is only known at run time (no kernel index map for it), skipping GPU lowering
// WARN: views-dynamic-map-reduce.mlir:51:5: warning: 'btensor.map_reduce' reads the view !buffer.buf<1x2xf32, strided<[3, 1], offset: ?>>, whose layout is only known at run time (no kernel index map for it), skipping GPU lowering
// WARN-NOT: warning

// CHECK:      gpu.launch @map_reduce_kernel_0
// CHECK:      gpu.buf_copy_to_host {{.*}} -> %y : !mem.ptr<!mem.array<2 x !mem.array<3 x f32>>, 1> -> !buffer.buf<2x3xf32>
// CHECK:      scf.for %i
// CHECK-NEXT:   %row = buffer.subview %y[%i, 1] [1, 2] [1, 1] : !buffer.buf<2x3xf32> to !buffer.buf<1x2xf32, strided<[3, 1], offset: ?>>
// CHECK-NEXT:   %t1, %s = btensor.map_reduce %t ins(%row : !buffer.buf<1x2xf32, strided<[3, 1], offset: ?>>)
// CHECK:        %t3, %d = btensor.map_reduce %t2 ins(%row : !buffer.buf<1x2xf32, strided<[3, 1], offset: ?>>)
// CHECK:        gpu.buf_alloc_copy {{.*}}, %d :
// CHECK:        gpu.launch @map_reduce_kernel_1
// CHECK-NOT:  btensor.map_reduce
