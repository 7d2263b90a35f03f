// RUN: gpu-opt %s -p buffer-lower-ptr --split-input-file | filecheck %s
// RUN: gpu-opt %s -p buffer-lower-ptr --split-input-file --mlir-pass-statistics -o /dev/null 2>&1 | filecheck %s --check-prefix=STATS

// The statistics of the whole file: 5 view ops erased, a copy and a print of views expanded,
// 7 accesses folded.
// STATS:      {{^}}BufferLowerPtr
// STATS-NEXT:   (S) 8 num-buffer-ops-lowered   - Number of buffer ops lowered to mem ops
// STATS-NEXT:   (S) 0 num-transfers-lowered    - Number of gpu.buf_* transfers lowered to pointer transfers
// STATS-NEXT:   (S) 7 num-view-accesses-folded - Number of view accesses rewritten to their buffer
// STATS-NEXT:   (S) 2 num-view-loops-expanded  - Number of copies and prints of views expanded into loops
// STATS-NEXT:   (S) 5 num-views-erased         - Number of view ops erased

// A view allocates nothing: an access through it is an access to the buffer it views, at
// offset + Σ i_k·stride_k written as that buffer's indices. A transpose swaps the indices; a
// strided slice scales and shifts them; a broadcast drops the stride-0 ones; a layout whose sums
// could carry into the next dimension splits the position with floordiv and mod.

func.func @views(%m0: !mem.M<0>, %a: !buffer.buf<4x6xf32>, %i: index, %j: index, %x: f32) -> (!mem.M<0>, f32) {
  %t = buffer.transpose %a [1, 0] : !buffer.buf<4x6xf32> to !buffer.buf<6x4xf32, strided<[1, 6]>>
  %m1, %v = buffer.read %m0, %t[%i, %j] : !buffer.buf<6x4xf32, strided<[1, 6]>>
  %s = buffer.subview %a[1, 1] [3, 2] [1, 3] : !buffer.buf<4x6xf32> to !buffer.buf<3x2xf32, strided<[6, 3], offset: 7>>
  %m2, %s1 = buffer.write %m1, %s[%i, %j], %x : !buffer.buf<3x2xf32, strided<[6, 3], offset: 7>>
  %b = buffer.broadcast %s1 : !buffer.buf<3x2xf32, strided<[6, 3], offset: 7>> to !buffer.buf<5x3x2xf32, strided<[0, 6, 3], offset: 7>>
  %m3, %w = buffer.read %m2, %b[%i, %j, %i] : !buffer.buf<5x3x2xf32, strided<[0, 6, 3], offset: 7>>
  %f = buffer.view %a : !buffer.buf<4x6xf32> to !buffer.buf<2x12xf32>
  %m4, %y = buffer.read %m3, %f[%i, %j] : !buffer.buf<2x12xf32>
  %n = buffer.shape %t[1] : !buffer.buf<6x4xf32, strided<[1, 6]>>
  func.return %m4, %y : !mem.M<0>, f32
}

// CHECK:      func.func @views(%m0: !mem.M<0>, %a: !mem.ptr<!mem.array<4 x !mem.array<6 x f32>>, 0>, %i: index, %j: index, %x: f32) -> (!mem.M<0>, f32) {
// transpose: a[j][i]
// CHECK-NEXT:   [[T0:%.*]] = mem.lea %a, %j : !mem.ptr<!mem.array<4 x !mem.array<6 x f32>>, 0>
// CHECK-NEXT:   [[T1:%.*]] = mem.lea [[T0]], %i : !mem.ptr<!mem.array<6 x f32>, 0>
// CHECK-NEXT:   %m1, %v = mem.load %m0, [[T1]] : !mem.ptr<f32, 0>
// subview at (1, 1), column stride 3: a[i + 1][3j + 1]
// CHECK-NEXT:   [[ONE:%.*]] = arith.constant 1 : index
// CHECK-NEXT:   [[ROW:%.*]] = arith.addi %i, [[ONE]] : index
// CHECK-NEXT:   [[THREE:%.*]] = arith.constant 3 : index
// CHECK-NEXT:   [[J3:%.*]] = arith.muli %j, [[THREE]] : index
// CHECK-NEXT:   [[COL:%.*]] = arith.addi [[J3]], [[ONE]] : index
// CHECK-NEXT:   [[S0:%.*]] = mem.lea %a, [[ROW]] : !mem.ptr<!mem.array<4 x !mem.array<6 x f32>>, 0>
// CHECK-NEXT:   [[S1:%.*]] = mem.lea [[S0]], [[COL]] : !mem.ptr<!mem.array<6 x f32>, 0>
// CHECK-NEXT:   %m2 = mem.store %m1, [[S1]], %x : !mem.ptr<f32, 0>
// the broadcast of the subview (through the write's result), at [i, j, i]: a[j + 1][3i + 1]
// CHECK-NEXT:   [[ONE2:%.*]] = arith.constant 1 : index
// CHECK-NEXT:   [[ROW2:%.*]] = arith.addi %j, [[ONE2]] : index
// CHECK-NEXT:   [[THREE2:%.*]] = arith.constant 3 : index
// CHECK-NEXT:   [[I3:%.*]] = arith.muli %i, [[THREE2]] : index
// CHECK-NEXT:   [[COL2:%.*]] = arith.addi [[I3]], [[ONE2]] : index
// CHECK-NEXT:   [[B0:%.*]] = mem.lea %a, [[ROW2]] : !mem.ptr<!mem.array<4 x !mem.array<6 x f32>>, 0>
// CHECK-NEXT:   [[B1:%.*]] = mem.lea [[B0]], [[COL2]] : !mem.ptr<!mem.array<6 x f32>, 0>
// CHECK-NEXT:   %m3, %w = mem.load %m2, [[B1]] : !mem.ptr<f32, 0>
// 2x12 over 4x6: position 12i + j, at [p floordiv 6][p mod 6]
// CHECK-NEXT:   [[TWELVE:%.*]] = arith.constant 12 : index
// CHECK-NEXT:   [[I12:%.*]] = arith.muli %i, [[TWELVE]] : index
// CHECK-NEXT:   [[P:%.*]] = arith.addi %j, [[I12]] : index
// CHECK-NEXT:   [[SIX:%.*]] = arith.constant 6 : index
// CHECK-NEXT:   [[Q:%.*]] = arith.floordivsi [[P]], [[SIX]] : index
// CHECK-NEXT:   [[I12B:%.*]] = arith.muli %i, [[TWELVE]] : index
// CHECK-NEXT:   [[PB:%.*]] = arith.addi %j, [[I12B]] : index
// CHECK-NEXT:   [[R:%.*]] = arith.remsi [[PB]], [[SIX]] : index
// CHECK:        [[F0:%.*]] = mem.lea %a, [[Q]] : !mem.ptr<!mem.array<4 x !mem.array<6 x f32>>, 0>
// CHECK-NEXT:   [[F1:%.*]] = mem.lea [[F0]], {{%.*}} : !mem.ptr<!mem.array<6 x f32>, 0>
// CHECK-NEXT:   %m4, %y = mem.load %m3, [[F1]] : !mem.ptr<f32, 0>
// buffer.shape of a view: its static extent
// CHECK-NEXT:   %n = arith.constant 4 : index
// CHECK-NEXT:   func.return %m4, %y : !mem.M<0>, f32
// CHECK-NEXT: }

// -----

// buffer.copy and buffer.print of a view are loop nests over the view's shape that read (and
// write) the viewed buffers in place: one allocation in all, the dense destination's.

func.func @copy_print(%m0: !mem.M<0>, %a: !buffer.buf<2x3xi32>) -> !mem.M<0> {
  %t = buffer.transpose %a [1, 0] : !buffer.buf<2x3xi32> to !buffer.buf<3x2xi32, strided<[1, 3]>>
  %m1, %d = buffer.alloc %m0 : !buffer.buf<3x2xi32>
  %m2 = buffer.copy %m1, %d, %t : !buffer.buf<3x2xi32>, !buffer.buf<3x2xi32, strided<[1, 3]>>
  %m3 = buffer.print %m2, %t : !buffer.buf<3x2xi32, strided<[1, 3]>>
  func.return %m3 : !mem.M<0>
}

// CHECK:      func.func @copy_print(%m0: !mem.M<0>, %a: !mem.ptr<!mem.array<2 x !mem.array<3 x i32>>, 0>) -> !mem.M<0> {
// CHECK-NEXT:   %m1, %d = mem.alloc %m0 : !mem.ptr<!mem.array<3 x !mem.array<2 x i32>>, 0>
// CHECK-NOT:    mem.alloc
// CHECK:        scf.for %[[I:[0-9a-z_]+]] = {{.*}} iter_args
// CHECK-NEXT:     scf.for %[[J:[0-9a-z_]+]] = {{.*}} iter_args(%[[M:[0-9a-z_]+]] = {{.*}})
// CHECK-NEXT:       [[A0:%.*]] = mem.lea %a, %[[J]] : !mem.ptr<!mem.array<2 x !mem.array<3 x i32>>, 0>
// CHECK-NEXT:       [[A1:%.*]] = mem.lea [[A0]], %[[I]] : !mem.ptr<!mem.array<3 x i32>, 0>
// CHECK-NEXT:       [[L:%.*]], [[V:%.*]] = mem.load %[[M]], [[A1]] : !mem.ptr<i32, 0>
// CHECK-NEXT:       [[D0:%.*]] = mem.lea %d, %[[I]] : !mem.ptr<!mem.array<3 x !mem.array<2 x i32>>, 0>
// CHECK-NEXT:       [[D1:%.*]] = mem.lea [[D0]], %[[J]] : !mem.ptr<!mem.array<2 x i32>, 0>
// CHECK-NEXT:       mem.store [[L]], [[D1]], [[V]] : !mem.ptr<i32, 0>
// CHECK:        scf.for %[[R:[0-9a-z_]+]] = {{.*}} iter_args
// CHECK-NEXT:     scf.for %[[C:[0-9a-z_]+]] = {{.*}} iter_args(%[[M2:[0-9a-z_]+]] = {{.*}})
// CHECK-NEXT:       [[P0:%.*]] = mem.lea %a, %[[C]] : !mem.ptr<!mem.array<2 x !mem.array<3 x i32>>, 0>
// CHECK-NEXT:       [[P1:%.*]] = mem.lea [[P0]], %[[R]] : !mem.ptr<!mem.array<3 x i32>, 0>
// CHECK-NEXT:       {{.*}} = mem.load %[[M2]], [[P1]] : !mem.ptr<i32, 0>
// CHECK-NEXT:       printf.print_format "{}, "
// CHECK-NOT:    mem.alloc
// CHECK-NOT:    buffer.
