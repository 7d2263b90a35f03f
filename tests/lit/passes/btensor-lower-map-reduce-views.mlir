// RUN: gpu-opt %s -p btensor-lower-map-reduce | filecheck %s
// RUN: gpu-opt %s -p btensor-lower-map-reduce,buffer-lower-ptr | filecheck %s --check-prefix=PTR

// The CPU path reads a view input with buffer.read of the view; buffer-lower-ptr then reads the
// buffer it views in place: row sums of a transpose read a[k][i], no copy, no allocation but the
// output's.

func.func @row_sums(%m: !mem.M<0>, %a: !buffer.buf<3x4xf32>) -> (!mem.M<0>, !buffer.buf<4xf32>) {
  %t = buffer.transpose %a [1, 0] : !buffer.buf<3x4xf32> to !buffer.buf<4x3xf32, strided<[1, 4]>>
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

// CHECK:      %t = buffer.transpose %a [1, 0]
// CHECK:      buffer.alloc %m : !buffer.buf<4xf32>
// CHECK:      scf.for %[[I:[0-9a-z_]+]] = {{.*}} iter_args
// CHECK:        scf.for %[[K:[0-9a-z_]+]] = {{.*}} iter_args(%[[M:[0-9a-z_]+]] = {{.*}}, {{.*}})
// CHECK-NEXT:     buffer.read %[[M]], %t[%[[I]], %[[K]]] : !buffer.buf<4x3xf32, strided<[1, 4]>>

// PTR:        func.func @row_sums(%m: !mem.M<0>, %a: !mem.ptr<!mem.array<3 x !mem.array<4 x f32>>, 0>)
// PTR-NEXT:     %zero = arith.constant
// PTR-NEXT:     mem.alloc %m : !mem.ptr<!mem.array<4 x f32>, 0>
// PTR-NOT:      mem.alloc
// PTR:          scf.for %[[I:[0-9a-z_]+]] = {{.*}} iter_args
// PTR:            scf.for %[[K:[0-9a-z_]+]] = {{.*}} iter_args
// PTR-NEXT:         [[A0:%.*]] = mem.lea %a, %[[K]] : !mem.ptr<!mem.array<3 x !mem.array<4 x f32>>, 0>
// PTR-NEXT:         [[A1:%.*]] = mem.lea [[A0]], %[[I]] : !mem.ptr<!mem.array<4 x f32>, 0>
// PTR-NEXT:         mem.load {{.*}}, [[A1]] : !mem.ptr<f32, 0>
// PTR-NOT:      mem.alloc
