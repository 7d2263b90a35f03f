// RUN: gpu-opt %s -p lower-btensor-map-reduce --split-input-file 2>/dev/null | filecheck %s
// RUN: gpu-opt %s -p lower-btensor-map-reduce --split-input-file 2>&1 >/dev/null | filecheck %s --check-prefix=WARN
// RUN: gpu-opt %S/../run/views-chaining.mlir -p lower-btensor-map-reduce | filecheck %s --check-prefix=IR

// Views on the GPU path: transfers stay dense. %t and %c view %a, %row views %r: %a and %r are
// copied to the device as they are, once each, freed once each; the kernel reads them through
// the layouts: t[i, k] = a[k][i], c[k, j] = a[k][2j + 1], row[j, i] = r[i]. Nothing is
// allocated for a view; the output is a dense new buffer.

func.func @views(%m: !mem.M<0>, %a: !buffer.buf<3x4xf32>, %r: !buffer.buf<4xf32>) -> (!mem.M<0>, !buffer.buf<4x2xf32>) {
  %t = buffer.transpose %a [1, 0] : !buffer.buf<3x4xf32> to !buffer.buf<4x3xf32, strided<[1, 4]>>
  %c = buffer.subview %a[0, 1] [3, 2] [1, 2] : !buffer.buf<3x4xf32> to !buffer.buf<3x2xf32, strided<[4, 2], offset: 1>>
  %row = buffer.broadcast %r : !buffer.buf<4xf32> to !buffer.buf<2x4xf32, strided<[0, 1]>>
  %zero = arith.constant 0.0 : f32
  %m1, %o = btensor.map_reduce_post %m
      ins(%t, %c : !buffer.buf<4x3xf32, strided<[1, 4]>>, !buffer.buf<3x2xf32, strided<[4, 2], offset: 1>>)
      post_ins(%row : !buffer.buf<2x4xf32, strided<[0, 1]>>) init(%zero : f32)
      {out_rank = 2 : i64, shape = array<i64: 4, 2, 3>,
      maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>],
      post_maps = [affine_map<(i, j) -> (j, i)>], out_map = affine_map<(i, j) -> (i, j)>} combiner {
    ^bb0(%acc: f32, %x: f32, %y: f32):
      %p = arith.mulf %x, %y : f32
      %s = arith.addf %acc, %p : f32
      btensor.yield %s : f32
  } epilogue {
    ^bb0(%acc: f32, %b: f32):
      %s = arith.addf %acc, %b : f32
      btensor.yield %s : f32
  } : !buffer.buf<4x2xf32>
  func.return %m1, %o : !mem.M<0>, !buffer.buf<4x2xf32>
}

// CHECK:      func.func @map_reduce_kernel_0(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>, %group_id: index, %item_id: index, %in0: !mem.ptr<!mem.array<3 x !mem.array<4 x f32>>, 1>, %in1: !mem.ptr<!mem.array<3 x !mem.array<4 x f32>>, 1>, %post0: !mem.ptr<!mem.array<4 x f32>, 1>, %out: !mem.ptr<!mem.array<4 x !mem.array<2 x f32>>, 1>)
// CHECK:        %[[I:[0-9a-z_]+]] = arith.divui %flat
// CHECK-NEXT:   %[[J:[0-9a-z_]+]] = arith.remui %flat
// CHECK-NEXT:   scf.for %[[K:[0-9a-z_]+]] = {{.*}} iter_args
// CHECK-NEXT:     [[T0:%.*]] = mem.lea %in0, %[[K]] : !mem.ptr<!mem.array<3 x !mem.array<4 x f32>>, 1>
// CHECK-NEXT:     [[T1:%.*]] = mem.lea [[T0]], %[[I]] : !mem.ptr<!mem.array<4 x f32>, 1>
// CHECK-NEXT:     mem.load {{.*}}, [[T1]]
// CHECK-NEXT:     [[J2:%.*]] = arith.muli %[[J]], %{{.*}} : index
// CHECK-NEXT:     [[COL:%.*]] = arith.addi [[J2]], %{{.*}} : index
// CHECK-NEXT:     [[C0:%.*]] = mem.lea %in1, %[[K]] : !mem.ptr<!mem.array<3 x !mem.array<4 x f32>>, 1>
// CHECK-NEXT:     [[C1:%.*]] = mem.lea [[C0]], [[COL]] : !mem.ptr<!mem.array<4 x f32>, 1>
// CHECK-NEXT:     mem.load {{.*}}, [[C1]]
// CHECK:        [[R:%.*]] = mem.lea %post0, %[[I]] : !mem.ptr<!mem.array<4 x f32>, 1>
// CHECK-NEXT:   mem.load {{.*}}, [[R]]

// CHECK:      func.func @views(
// CHECK:        gpu.auto_init %m
// CHECK-NEXT:   %{{.*}}, %{{.*}}, %a_dev = gpu.buf_alloc_copy %{{.*}}, %{{.*}}, %a : !buffer.buf<3x4xf32> -> !mem.ptr<!mem.array<3 x !mem.array<4 x f32>>, 1>
// CHECK-NEXT:   %{{.*}}, %{{.*}}, %r_dev = gpu.buf_alloc_copy %{{.*}}, %{{.*}}, %r : !buffer.buf<4xf32> -> !mem.ptr<!mem.array<4 x f32>, 1>
// CHECK-NEXT:   %{{.*}}, %o_dev = gpu.alloc.block
// CHECK-NOT:    gpu.buf_alloc_copy
// CHECK:        gpu.launch @map_reduce_kernel_0 grid(%{{.*}}, %{{.*}}) stream(%{{.*}}) mems(%{{.*}}, %{{.*}}, %{{.*}}) args(%a_dev, %a_dev, %r_dev, %o_dev)
// CHECK-NEXT:   %{{.*}}, %o = buffer.alloc %{{.*}} : !buffer.buf<4x2xf32>
// CHECK-NEXT:   gpu.buf_copy_to_host
// CHECK-NEXT:   gpu.free.block %{{.*}}, %a_dev
// CHECK-NEXT:   gpu.free.block %{{.*}}, %r_dev
// CHECK-NEXT:   gpu.free.block %{{.*}}, %o_dev
// CHECK-NEXT:   gpu.auto_deinit

// -----

// A strided buffer whose view op is not in sight (a parameter) keeps the op on the CPU path.

func.func @param(%m: !mem.M<0>, %t: !buffer.buf<4x3xf32, strided<[1, 4]>>) -> (!mem.M<0>, !buffer.buf<4xf32>) {
  %zero = arith.constant 0.0 : f32
  %m1, %o = btensor.map_reduce %m ins(%t : !buffer.buf<4x3xf32, strided<[1, 4]>>) init(%zero : f32)
      {out_rank = 1 : i64, shape = array<i64: 4, 3>, maps = [affine_map<(i, k) -> (i, k)>],
      out_map = affine_map<(i) -> (i)>} combiner {
    ^bb0(%acc: f32, %x: f32):
      %s = arith.addf %acc, %x : f32
      btensor.yield %s : f32
  } : !buffer.buf<4xf32>
  func.return %m1, %o : !mem.M<0>, !buffer.buf<4xf32>
}

// WARN: warning: 'btensor.map_reduce' reads the view !buffer.buf<4x3xf32, strided<[1, 4]>>, whose view op is not in sight, skipping GPU lowering
// CHECK:      func.func @param(
// CHECK-NOT:  gpu.
// CHECK:      btensor.map_reduce

// Device-resident chaining through a view (tests/lit/run/views-chaining.mlir): y is never
// copied to the host nor uploaded again; the third kernel reads y_dev at [j][i]; the view op is
// gone with y's op; y_dev is freed after the last launch.
// IR:      func.func @map_reduce_kernel_2(
// IR:        scf.for %[[J:[0-9a-z_]+]] = {{.*}} iter_args
// IR-NEXT:     [[Y0:%.*]] = mem.lea %in0, %[[J]] : !mem.ptr<!mem.array<2 x !mem.array<3 x f32>>, 1>
// IR-NEXT:     [[Y1:%.*]] = mem.lea [[Y0]], %flat : !mem.ptr<!mem.array<3 x f32>, 1>
// IR-LABEL: func.func @main(
// IR-NOT:    buffer.transpose
// IR:        gpu.buf_alloc_copy {{.*}} %a :
// IR-NOT:    gpu.buf_alloc_copy
// IR-NOT:    gpu.buf_copy_to_host {{.*}} %y_dev
// IR:        gpu.launch @map_reduce_kernel_2 {{.*}} args(%y_dev, %c_dev)
// IR:        gpu.free.block {{.*}}, %y_dev
// IR-NOT:    buffer.transpose
