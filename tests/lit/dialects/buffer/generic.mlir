// RUN: gpu-opt %s | filecheck %s
// RUN: gpu-opt %s --print-op-generic | gpu-opt | filecheck %s

// Every buffer op written in the generic form of IR.md, as tests outside the project write it:
// it parses, verifies and prints in the custom syntax.

func.func @main(%m0: !mem.M<0>, %n: index, %v: f32) -> !mem.M<0> {
  %a0, %a = "buffer.alloc"(%m0, %n) : (!mem.M<0>, index) -> (!mem.M<0>, !buffer.buf<?x2xf32>)
  %b0, %b = "buffer.lit"(%a0, %v) : (!mem.M<0>, f32) -> (!mem.M<0>, !buffer.buf<2x2xf32>)
  %c0, %c = "buffer.init"(%b0) <{value = dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>}> : (!mem.M<0>) -> (!mem.M<0>, !buffer.buf<2x2xi32>)
  %i = arith.constant 1 : index
  %d0, %x = "buffer.read"(%c0, %b, %i, %i) : (!mem.M<0>, !buffer.buf<2x2xf32>, index, index) -> (!mem.M<0>, f32)
  %e0, %e = "buffer.write"(%d0, %a, %i, %i, %x) : (!mem.M<0>, !buffer.buf<?x2xf32>, index, index, f32) -> (!mem.M<0>, !buffer.buf<?x2xf32>)
  %rows = "buffer.shape"(%e) <{dim = 0 : i64}> : (!buffer.buf<?x2xf32>) -> index
  %f0 = "buffer.copy"(%e0, %b, %b) : (!mem.M<0>, !buffer.buf<2x2xf32>, !buffer.buf<2x2xf32>) -> !mem.M<0>
  %g0 = "buffer.print"(%f0, %c) : (!mem.M<0>, !buffer.buf<2x2xi32>) -> !mem.M<0>
  func.return %g0 : !mem.M<0>
}

// CHECK:      builtin.module {
// CHECK-NEXT:   func.func @main(%m0: !mem.M<0>, %n: index, %v: f32) -> !mem.M<0> {
// CHECK-NEXT:     %a0, %a = buffer.alloc %m0(%n) : !buffer.buf<?x2xf32>
// CHECK-NEXT:     %b0, %b = buffer.lit %a0, %v : f32 -> !buffer.buf<2x2xf32>
// CHECK-NEXT:     %c0, %c = buffer.init %b0 dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>
// CHECK-NEXT:     %i = arith.constant 1 : index
// CHECK-NEXT:     %d0, %x = buffer.read %c0, %b[%i, %i] : !buffer.buf<2x2xf32>
// CHECK-NEXT:     %e0, %e = buffer.write %d0, %a[%i, %i], %x : !buffer.buf<?x2xf32>
// CHECK-NEXT:     %rows = buffer.shape %e[0] : !buffer.buf<?x2xf32>
// CHECK-NEXT:     %f0 = buffer.copy %e0, %b, %b : !buffer.buf<2x2xf32>
// CHECK-NEXT:     %g0 = buffer.print %f0, %c : !buffer.buf<2x2xi32>
// CHECK-NEXT:     func.return %g0 : !mem.M<0>
// CHECK-NEXT:   }
// CHECK-NEXT: }
