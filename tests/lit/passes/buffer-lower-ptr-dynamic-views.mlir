// RUN: gpu-opt %s -p buffer-lower-ptr --split-input-file | filecheck %s

// Dynamic views: the run-time offset of a view is `c + Σ v·k` over the offset operands of its
// buffer.subview ops (`buffer.view_offset`); an access through the view is the access to the
// root at the position offset + Σ i_k·stride_k, split into the root's indices with floordiv
// and mod. A `?` extent is the subview's size operand: buffer.shape returns it, and a copy or
// print loops up to it (or up to the static extent of the other side of a copy).

func.func @dynamic(%m0: !mem.M<0>, %a: !buffer.buf<4x6xf32>, %i: index, %j: index, %k: index, %n: index) -> (!mem.M<0>, f32, index) {
  %r = buffer.subview %a[%i, %k] [1, %n] [1, 2] : !buffer.buf<4x6xf32> to !buffer.buf<1x?xf32, strided<[6, 2], offset: ?>>
  %t = buffer.transpose %r [1, 0] : !buffer.buf<1x?xf32, strided<[6, 2], offset: ?>> to !buffer.buf<?x1xf32, strided<[2, 6], offset: ?>>
  %m1, %v = buffer.read %m0, %t[%j, %i] : !buffer.buf<?x1xf32, strided<[2, 6], offset: ?>>
  %e = buffer.shape %t[0] : !buffer.buf<?x1xf32, strided<[2, 6], offset: ?>>
  func.return %m1, %v, %e : !mem.M<0>, f32, index
}

// CHECK:      func.func @dynamic(%m0: !mem.M<0>, %a: !mem.ptr<!mem.array<4 x !mem.array<6 x f32>>, 0>, %i: index, %j: index, %k: index, %n: index) -> (!mem.M<0>, f32, index) {
// the offset: 0 + 6·i + 1·k
// CHECK-NEXT:   [[ZERO:%.*]] = arith.constant 0 : index
// CHECK-NEXT:   [[SIX:%.*]] = arith.constant 6 : index
// CHECK-NEXT:   [[I6:%.*]] = arith.muli %i, [[SIX]] : index
// CHECK-NEXT:   [[O1:%.*]] = arith.addi [[ZERO]], [[I6]] : index
// CHECK-NEXT:   [[OFF:%.*]] = arith.addi [[O1]], %k : index
// the position: j·2 + i·6 + offset (t[j, i] = r[i, j]); row = position floordiv 6
// CHECK-NEXT:   [[I6B:%.*]] = arith.muli %i, [[SIX]] : index
// CHECK-NEXT:   [[TWO:%.*]] = arith.constant 2 : index
// CHECK-NEXT:   [[J2:%.*]] = arith.muli %j, [[TWO]] : index
// CHECK-NEXT:   [[P1:%.*]] = arith.addi [[J2]], [[OFF]] : index
// CHECK-NEXT:   [[POS:%.*]] = arith.addi [[I6B]], [[P1]] : index
// CHECK-NEXT:   [[ROW:%.*]] = arith.floordivsi [[POS]], [[SIX]] : index
// column = position mod 6
// CHECK-NEXT:   [[I6C:%.*]] = arith.muli %i, [[SIX]] : index
// CHECK-NEXT:   [[J2B:%.*]] = arith.muli %j, [[TWO]] : index
// CHECK-NEXT:   [[P2:%.*]] = arith.addi [[J2B]], [[OFF]] : index
// CHECK-NEXT:   [[POS2:%.*]] = arith.addi [[I6C]], [[P2]] : index
// CHECK-NEXT:   [[REM:%.*]] = arith.remsi [[POS2]], [[SIX]] : index
// CHECK-NEXT:   [[NEG:%.*]] = arith.cmpi slt, [[REM]], [[ZERO]] : index
// CHECK-NEXT:   [[ADJ:%.*]] = arith.addi [[REM]], [[SIX]] : index
// CHECK-NEXT:   [[COL:%.*]] = arith.select [[NEG]], [[ADJ]], [[REM]] : index
// CHECK-NEXT:   [[P:%.*]] = mem.lea %a, [[ROW]] : !mem.ptr<!mem.array<4 x !mem.array<6 x f32>>, 0>
// CHECK-NEXT:   [[Q:%.*]] = mem.lea [[P]], [[COL]] : !mem.ptr<!mem.array<6 x f32>, 0>
// CHECK-NEXT:   %m1, %v = mem.load %m0, [[Q]] : !mem.ptr<f32, 0>
// the shape of the transpose's dimension 0: the subview's size %n
// CHECK-NEXT:   func.return %m1, %v, %n : !mem.M<0>, f32, index
// CHECK-NEXT: }

// -----

func.func @copy(%m0: !mem.M<0>, %a: !buffer.buf<4x6xf32>, %d: !buffer.buf<4x2xf32>, %n: index) -> !mem.M<0> {
  %s = buffer.subview %a[0, 1] [%n, 2] [1, 1] : !buffer.buf<4x6xf32> to !buffer.buf<?x2xf32, strided<[6, 1], offset: 1>>
  %m1 = buffer.copy %m0, %d, %s : !buffer.buf<4x2xf32>, !buffer.buf<?x2xf32, strided<[6, 1], offset: 1>>
  %m2 = buffer.print %m1, %s : !buffer.buf<?x2xf32, strided<[6, 1], offset: 1>>
  func.return %m2 : !mem.M<0>
}

// The copy loops over the destination's static 4 x 2; the print over %n x 2; both read
// a[(6·i + j + 1) floordiv 6][(6·i + j + 1) mod 6] (the static offset 1, no operand).
// CHECK-LABEL: func.func @copy
// CHECK:        [[FOUR:%.*]] = arith.constant 4 : index
// CHECK:        %m1 = scf.for [[I:%.*]] = {{%.*}} to [[FOUR]] step
// CHECK:          [[ONE:%.*]] = arith.constant 1 : index
// CHECK-NEXT:     [[SIX:%.*]] = arith.constant 6 : index
// CHECK-NEXT:     [[I6:%.*]] = arith.muli [[I]], [[SIX]] : index
// CHECK-NEXT:     [[O:%.*]] = arith.addi [[I6]], [[ONE]] : index
// CHECK-NEXT:     [[POS:%.*]] = arith.addi {{%.*}}, [[O]] : index
// CHECK-NEXT:     {{%.*}} = arith.floordivsi [[POS]], [[SIX]] : index
// CHECK:          mem.lea %a
// CHECK:          mem.load
// CHECK:          mem.lea %d, [[I]]
// CHECK:          mem.store
// CHECK:        %m2 = scf.for {{%.*}} = {{%.*}} to %n step
// CHECK:          mem.lea %a
// CHECK:          mem.load
