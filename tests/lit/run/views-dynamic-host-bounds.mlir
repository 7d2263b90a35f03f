// The host executor checks a dynamic subview against its source when it runs it (the
// verifier cannot: the offset is a run-time value): a[%i, 0] [1, 6] with %i = 4 leaves the
// 4 rows of a. (Lowered code does not check, as for buffer.read.)
// RUN: not gpu-run %s --provider interp -p "" 2>&1 | filecheck %s

// CHECK: views-dynamic-host-bounds.mlir:11:3: error: 'buffer.subview' at offset 4, size 1, stride 1 leaves dimension 0 of extent 4

func.func @main(%m: !mem.M<0>) -> !mem.M<0> {
  %m0, %a = buffer.alloc %m : !buffer.buf<4x6xf32>
  %c4 = arith.constant 4 : index
  %r = buffer.subview %a[%c4, 0] [1, 6] [1, 1] : !buffer.buf<4x6xf32> to !buffer.buf<1x6xf32, strided<[6, 1], offset: ?>>
  %m1 = buffer.print %m0, %r : !buffer.buf<1x6xf32, strided<[6, 1], offset: ?>>
  func.return %m1 : !mem.M<0>
}
