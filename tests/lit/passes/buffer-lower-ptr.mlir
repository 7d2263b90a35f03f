// RUN: gpu-opt %s -p buffer-lower-ptr --split-input-file | filecheck %s
// RUN: gpu-opt %S/../../../examples/matmul.mlir -p btensor-lower-map-reduce,buffer-lower-ptr | filecheck %s --check-prefix=MATMUL-CPU
// RUN: gpu-opt %S/../../../examples/bias_relu.mlir -p lower-btensor-map-reduce,btensor-lower-map-reduce,buffer-lower-ptr | filecheck %s --check-prefix=BIAS-RELU-GPU
// RUN: gpu-opt %s -p buffer-lower-ptr --split-input-file --mlir-pass-statistics -o /dev/null 2>&1 | filecheck %s --check-prefix=STATS

// The statistics of the whole file: 23 buffer ops and 3 transfers lowered, no views
// (buffer-lower-ptr-views.mlir has them).
// STATS:      {{^}}BufferLowerPtr
// STATS-NEXT:   (S) 23 num-buffer-ops-lowered   - Number of buffer ops lowered to mem ops
// STATS-NEXT:   (S)  3 num-transfers-lowered    - Number of gpu.buf_* transfers lowered to pointer transfers
// STATS-NEXT:   (S)  0 num-view-accesses-folded - Number of view accesses rewritten to their buffer
// STATS-NEXT:   (S)  0 num-view-loops-expanded  - Number of copies and prints of views expanded into loops
// STATS-NEXT:   (S)  0 num-views-erased         - Number of view ops erased

// A buffer type becomes a pointer to nested arrays wherever it occurs: signatures (declarations
// too), calls, loop-carried values. A read or write is one mem.lea per index and a load or
// store; a write's result is the pointer it writes through.

func.func private @consume(!buffer.buf<2x3xf32>) -> !buffer.buf<?x3xf32>

func.func @types(%m: !mem.M<0>, %b: !buffer.buf<2x3xf32>, %i: index, %j: index)
    -> (!mem.M<0>, !buffer.buf<?x3xf32>) {
  %lo = arith.constant 0 : index
  %hi = arith.constant 4 : index
  %step = arith.constant 1 : index
  %m3, %b3 = scf.for %k = %lo to %hi step %step iter_args(%m1 = %m, %b1 = %b)
      -> (!mem.M<0>, !buffer.buf<2x3xf32>) {
    %m2, %v = buffer.read %m1, %b1[%i, %j] : !buffer.buf<2x3xf32>
    %w = arith.addf %v, %v : f32
    %m4, %b2 = buffer.write %m2, %b1[%j, %i], %w : !buffer.buf<2x3xf32>
    scf.yield %m4, %b2 : !mem.M<0>, !buffer.buf<2x3xf32>
  }
  %r = func.call @consume(%b3) : (!buffer.buf<2x3xf32>) -> !buffer.buf<?x3xf32>
  func.return %m3, %r : !mem.M<0>, !buffer.buf<?x3xf32>
}

// CHECK:      func.func private @consume(!mem.ptr<!mem.array<2 x !mem.array<3 x f32>>, 0>) -> !mem.ptr<!mem.array<? x !mem.array<3 x f32>>, 0>
// CHECK-NEXT: func.func @types(%m: !mem.M<0>, %b: !mem.ptr<!mem.array<2 x !mem.array<3 x f32>>, 0>, %i: index, %j: index) -> (!mem.M<0>, !mem.ptr<!mem.array<? x !mem.array<3 x f32>>, 0>) {
// CHECK-NEXT:   %lo = arith.constant 0 : index
// CHECK-NEXT:   %hi = arith.constant 4 : index
// CHECK-NEXT:   %step = arith.constant 1 : index
// CHECK-NEXT:   %m3, %b3 = scf.for %k = %lo to %hi step %step iter_args(%m1 = %m, %b1 = %b) -> (!mem.M<0>, !mem.ptr<!mem.array<2 x !mem.array<3 x f32>>, 0>) {
// CHECK-NEXT:     [[P:%.*]] = mem.lea %b1, %i : !mem.ptr<!mem.array<2 x !mem.array<3 x f32>>, 0>
// CHECK-NEXT:     [[P_2:%.*]] = mem.lea [[P]], %j : !mem.ptr<!mem.array<3 x f32>, 0>
// CHECK-NEXT:     %m2, %v = mem.load %m1, [[P_2]] : !mem.ptr<f32, 0>
// CHECK-NEXT:     %w = arith.addf %v, %v : f32
// CHECK-NEXT:     [[P_3:%.*]] = mem.lea %b1, %j : !mem.ptr<!mem.array<2 x !mem.array<3 x f32>>, 0>
// CHECK-NEXT:     [[P_4:%.*]] = mem.lea [[P_3]], %i : !mem.ptr<!mem.array<3 x f32>, 0>
// CHECK-NEXT:     %m4 = mem.store %m2, [[P_4]], %w : !mem.ptr<f32, 0>
// CHECK-NEXT:     scf.yield %m4, %b1 : !mem.M<0>, !mem.ptr<!mem.array<2 x !mem.array<3 x f32>>, 0>
// CHECK-NEXT:   }
// CHECK-NEXT:   %r = func.call @consume(%b3) : (!mem.ptr<!mem.array<2 x !mem.array<3 x f32>>, 0>) -> !mem.ptr<!mem.array<? x !mem.array<3 x f32>>, 0>
// CHECK-NEXT:   func.return %m3, %r : !mem.M<0>, !mem.ptr<!mem.array<? x !mem.array<3 x f32>>, 0>
// CHECK-NEXT: }

// -----

// Allocation: the extent of a `?` dimension becomes the extent operand of mem.alloc. buffer.shape
// is a constant for a static extent and that operand for the `?` one (found through writes); a
// rank-0 buffer is a pointer to its element.

func.func @alloc(%m: !mem.M<0>, %n: index, %x: i64) -> (!mem.M<0>, index, index, i64) {
  %m1, %a = buffer.alloc %m(%n) : !buffer.buf<?x4xi64>
  %zero = arith.constant 0 : index
  %m2, %a2 = buffer.write %m1, %a[%zero, %zero], %x : !buffer.buf<?x4xi64>
  %rows = buffer.shape %a2[0] : !buffer.buf<?x4xi64>
  %columns = buffer.shape %a2[1] : !buffer.buf<?x4xi64>
  %m3, %s = buffer.alloc %m2 : !buffer.buf<i64>
  %m4, %s2 = buffer.write %m3, %s[], %x : !buffer.buf<i64>
  %m5, %y = buffer.read %m4, %s2[] : !buffer.buf<i64>
  func.return %m5, %rows, %columns, %y : !mem.M<0>, index, index, i64
}

// CHECK:      func.func @alloc(%m: !mem.M<0>, %n: index, %x: i64) -> (!mem.M<0>, index, index, i64) {
// CHECK-NEXT:   %m1, %a = mem.alloc %m, %n : !mem.ptr<!mem.array<? x !mem.array<4 x i64>>, 0>
// CHECK-NEXT:   %zero = arith.constant 0 : index
// CHECK-NEXT:   [[P:%.*]] = mem.lea %a, %zero : !mem.ptr<!mem.array<? x !mem.array<4 x i64>>, 0>
// CHECK-NEXT:   [[P_2:%.*]] = mem.lea [[P]], %zero : !mem.ptr<!mem.array<4 x i64>, 0>
// CHECK-NEXT:   %m2 = mem.store %m1, [[P_2]], %x : !mem.ptr<i64, 0>
// CHECK-NEXT:   %columns = arith.constant 4 : index
// CHECK-NEXT:   %m3, %s = mem.alloc %m2 : !mem.ptr<i64, 0>
// CHECK-NEXT:   %m4 = mem.store %m3, %s, %x : !mem.ptr<i64, 0>
// CHECK-NEXT:   %m5, %y = mem.load %m4, %s : !mem.ptr<i64, 0>
// CHECK-NEXT:   func.return %m5, %n, %columns, %y : !mem.M<0>, index, index, i64
// CHECK-NEXT: }

// -----

// buffer.lit stores its value through a loop nest (a rank-0 one: one store).

func.func @lit(%m: !mem.M<0>, %v: f16) -> (!mem.M<0>, !buffer.buf<2x3xf16>, !buffer.buf<f16>) {
  %m1, %a = buffer.lit %m, %v : f16 -> !buffer.buf<2x3xf16>
  %m2, %b = buffer.lit %m1, %v : f16 -> !buffer.buf<f16>
  func.return %m2, %a, %b : !mem.M<0>, !buffer.buf<2x3xf16>, !buffer.buf<f16>
}

// CHECK:      func.func @lit(%m: !mem.M<0>, %v: f16) -> (!mem.M<0>, !mem.ptr<!mem.array<2 x !mem.array<3 x f16>>, 0>, !mem.ptr<f16, 0>) {
// CHECK-NEXT:   [[ALLOC:%.*]], %a = mem.alloc %m : !mem.ptr<!mem.array<2 x !mem.array<3 x f16>>, 0>
// CHECK-NEXT:   [[C2:%.*]] = arith.constant 2 : index
// CHECK-NEXT:   [[C3:%.*]] = arith.constant 3 : index
// CHECK-NEXT:   [[C0:%.*]] = arith.constant 0 : index
// CHECK-NEXT:   [[C1:%.*]] = arith.constant 1 : index
// CHECK-NEXT:   %m1 = scf.for [[I:%.*]] = [[C0]] to [[C2]] step [[C1]] iter_args([[ARG:%.*]] = [[ALLOC]]) -> (!mem.M<0>) {
// CHECK-NEXT:     [[FOR:%.*]] = scf.for [[I_2:%.*]] = [[C0]] to [[C3]] step [[C1]] iter_args([[ARG_2:%.*]] = [[ARG]]) -> (!mem.M<0>) {
// CHECK-NEXT:       [[P:%.*]] = mem.lea %a, [[I]] : !mem.ptr<!mem.array<2 x !mem.array<3 x f16>>, 0>
// CHECK-NEXT:       [[P_2:%.*]] = mem.lea [[P]], [[I_2]] : !mem.ptr<!mem.array<3 x f16>, 0>
// CHECK-NEXT:       [[ST:%.*]] = mem.store [[ARG_2]], [[P_2]], %v : !mem.ptr<f16, 0>
// CHECK-NEXT:       scf.yield [[ST]] : !mem.M<0>
// CHECK-NEXT:     }
// CHECK-NEXT:     scf.yield [[FOR]] : !mem.M<0>
// CHECK-NEXT:   }
// CHECK-NEXT:   [[ALLOC_2:%.*]], %b = mem.alloc %m1 : !mem.ptr<f16, 0>
// CHECK-NEXT:   %m2 = mem.store [[ALLOC_2]], %b, %v : !mem.ptr<f16, 0>
// CHECK-NEXT:   func.return %m2, %a, %b : !mem.M<0>, !mem.ptr<!mem.array<2 x !mem.array<3 x f16>>, 0>, !mem.ptr<f16, 0>
// CHECK-NEXT: }

// -----

// buffer.init stores each element (sharing the address of each row and each constant); a splat
// literal is stored like buffer.lit; an empty literal only allocates.

func.func @init(%m: !mem.M<0>)
    -> (!mem.M<0>, !buffer.buf<2x2xi32>, !buffer.buf<2x3xf32>, !buffer.buf<0x3xi8>) {
  %m1, %a = buffer.init %m dense<[[1, 2], [3, 1]]> : tensor<2x2xi32>
  %m2, %b = buffer.init %m1 dense<1.5> : tensor<2x3xf32>
  %m3, %c = buffer.init %m2 dense<> : tensor<0x3xi8>
  func.return %m3, %a, %b, %c : !mem.M<0>, !buffer.buf<2x2xi32>, !buffer.buf<2x3xf32>, !buffer.buf<0x3xi8>
}

// CHECK:      func.func @init(%m: !mem.M<0>) -> (!mem.M<0>, !mem.ptr<!mem.array<2 x !mem.array<2 x i32>>, 0>, !mem.ptr<!mem.array<2 x !mem.array<3 x f32>>, 0>, !mem.ptr<!mem.array<0 x !mem.array<3 x i8>>, 0>) {
// CHECK-NEXT:   [[ALLOC:%.*]], %a = mem.alloc %m : !mem.ptr<!mem.array<2 x !mem.array<2 x i32>>, 0>
// CHECK-NEXT:   [[C0:%.*]] = arith.constant 0 : index
// CHECK-NEXT:   [[P:%.*]] = mem.lea %a, [[C0]] : !mem.ptr<!mem.array<2 x !mem.array<2 x i32>>, 0>
// CHECK-NEXT:   [[P_2:%.*]] = mem.lea [[P]], [[C0]] : !mem.ptr<!mem.array<2 x i32>, 0>
// CHECK-NEXT:   [[Ki32:%.*]] = arith.constant 1 : i32
// CHECK-NEXT:   [[ST:%.*]] = mem.store [[ALLOC]], [[P_2]], [[Ki32]] : !mem.ptr<i32, 0>
// CHECK-NEXT:   [[C1:%.*]] = arith.constant 1 : index
// CHECK-NEXT:   [[P_3:%.*]] = mem.lea [[P]], [[C1]] : !mem.ptr<!mem.array<2 x i32>, 0>
// CHECK-NEXT:   [[Ki32_2:%.*]] = arith.constant 2 : i32
// CHECK-NEXT:   [[ST_2:%.*]] = mem.store [[ST]], [[P_3]], [[Ki32_2]] : !mem.ptr<i32, 0>
// CHECK-NEXT:   [[P_4:%.*]] = mem.lea %a, [[C1]] : !mem.ptr<!mem.array<2 x !mem.array<2 x i32>>, 0>
// CHECK-NEXT:   [[P_5:%.*]] = mem.lea [[P_4]], [[C0]] : !mem.ptr<!mem.array<2 x i32>, 0>
// CHECK-NEXT:   [[Ki32_3:%.*]] = arith.constant 3 : i32
// CHECK-NEXT:   [[ST_3:%.*]] = mem.store [[ST_2]], [[P_5]], [[Ki32_3]] : !mem.ptr<i32, 0>
// CHECK-NEXT:   [[P_6:%.*]] = mem.lea [[P_4]], [[C1]] : !mem.ptr<!mem.array<2 x i32>, 0>
// CHECK-NEXT:   %m1 = mem.store [[ST_3]], [[P_6]], [[Ki32]] : !mem.ptr<i32, 0>
// CHECK-NEXT:   [[ALLOC_2:%.*]], %b = mem.alloc %m1 : !mem.ptr<!mem.array<2 x !mem.array<3 x f32>>, 0>
// CHECK-NEXT:   [[F32:%.*]] = arith.constant 1.500000e+00 : f32
// CHECK-NEXT:   [[C2:%.*]] = arith.constant 2 : index
// CHECK-NEXT:   [[C3:%.*]] = arith.constant 3 : index
// CHECK-NEXT:   [[C0_2:%.*]] = arith.constant 0 : index
// CHECK-NEXT:   [[C1_2:%.*]] = arith.constant 1 : index
// CHECK-NEXT:   %m2 = scf.for [[I:%.*]] = [[C0_2]] to [[C2]] step [[C1_2]] iter_args([[ARG:%.*]] = [[ALLOC_2]]) -> (!mem.M<0>) {
// CHECK-NEXT:     [[FOR:%.*]] = scf.for [[I_2:%.*]] = [[C0_2]] to [[C3]] step [[C1_2]] iter_args([[ARG_2:%.*]] = [[ARG]]) -> (!mem.M<0>) {
// CHECK-NEXT:       [[P_7:%.*]] = mem.lea %b, [[I]] : !mem.ptr<!mem.array<2 x !mem.array<3 x f32>>, 0>
// CHECK-NEXT:       [[P_8:%.*]] = mem.lea [[P_7]], [[I_2]] : !mem.ptr<!mem.array<3 x f32>, 0>
// CHECK-NEXT:       [[ST_4:%.*]] = mem.store [[ARG_2]], [[P_8]], [[F32]] : !mem.ptr<f32, 0>
// CHECK-NEXT:       scf.yield [[ST_4]] : !mem.M<0>
// CHECK-NEXT:     }
// CHECK-NEXT:     scf.yield [[FOR]] : !mem.M<0>
// CHECK-NEXT:   }
// CHECK-NEXT:   %m3, %c = mem.alloc %m2 : !mem.ptr<!mem.array<0 x !mem.array<3 x i8>>, 0>
// CHECK-NEXT:   func.return %m3, %a, %b, %c : !mem.M<0>, !mem.ptr<!mem.array<2 x !mem.array<2 x i32>>, 0>, !mem.ptr<!mem.array<2 x !mem.array<3 x f32>>, 0>, !mem.ptr<!mem.array<0 x !mem.array<3 x i8>>, 0>
// CHECK-NEXT: }

// -----

// buffer.copy: a loop nest of loads and stores; a `?` extent comes from either buffer's alloc.

func.func @copy(%m: !mem.M<0>, %src: !buffer.buf<2x3xi32>, %n: index)
    -> (!mem.M<0>, !buffer.buf<2x3xi32>, !buffer.buf<?x3xi32>) {
  %m1, %dst = buffer.alloc %m : !buffer.buf<2x3xi32>
  %m2 = buffer.copy %m1, %dst, %src : !buffer.buf<2x3xi32>
  %m3, %a = buffer.alloc %m2(%n) : !buffer.buf<?x3xi32>
  %m4, %b = buffer.alloc %m3(%n) : !buffer.buf<?x3xi32>
  %m5 = buffer.copy %m4, %b, %a : !buffer.buf<?x3xi32>
  func.return %m5, %dst, %b : !mem.M<0>, !buffer.buf<2x3xi32>, !buffer.buf<?x3xi32>
}

// CHECK:      func.func @copy(%m: !mem.M<0>, %src: !mem.ptr<!mem.array<2 x !mem.array<3 x i32>>, 0>, %n: index) -> (!mem.M<0>, !mem.ptr<!mem.array<2 x !mem.array<3 x i32>>, 0>, !mem.ptr<!mem.array<? x !mem.array<3 x i32>>, 0>) {
// CHECK-NEXT:   %m1, %dst = mem.alloc %m : !mem.ptr<!mem.array<2 x !mem.array<3 x i32>>, 0>
// CHECK-NEXT:   [[C2:%.*]] = arith.constant 2 : index
// CHECK-NEXT:   [[C3:%.*]] = arith.constant 3 : index
// CHECK-NEXT:   [[C0:%.*]] = arith.constant 0 : index
// CHECK-NEXT:   [[C1:%.*]] = arith.constant 1 : index
// CHECK-NEXT:   %m2 = scf.for [[I:%.*]] = [[C0]] to [[C2]] step [[C1]] iter_args([[ARG:%.*]] = %m1) -> (!mem.M<0>) {
// CHECK-NEXT:     [[FOR:%.*]] = scf.for [[I_2:%.*]] = [[C0]] to [[C3]] step [[C1]] iter_args([[ARG_2:%.*]] = [[ARG]]) -> (!mem.M<0>) {
// CHECK-NEXT:       [[P:%.*]] = mem.lea %src, [[I]] : !mem.ptr<!mem.array<2 x !mem.array<3 x i32>>, 0>
// CHECK-NEXT:       [[P_2:%.*]] = mem.lea [[P]], [[I_2]] : !mem.ptr<!mem.array<3 x i32>, 0>
// CHECK-NEXT:       [[LD:%.*]], [[LD_2:%.*]] = mem.load [[ARG_2]], [[P_2]] : !mem.ptr<i32, 0>
// CHECK-NEXT:       [[P_3:%.*]] = mem.lea %dst, [[I]] : !mem.ptr<!mem.array<2 x !mem.array<3 x i32>>, 0>
// CHECK-NEXT:       [[P_4:%.*]] = mem.lea [[P_3]], [[I_2]] : !mem.ptr<!mem.array<3 x i32>, 0>
// CHECK-NEXT:       [[ST:%.*]] = mem.store [[LD]], [[P_4]], [[LD_2]] : !mem.ptr<i32, 0>
// CHECK-NEXT:       scf.yield [[ST]] : !mem.M<0>
// CHECK-NEXT:     }
// CHECK-NEXT:     scf.yield [[FOR]] : !mem.M<0>
// CHECK-NEXT:   }
// CHECK-NEXT:   %m3, %a = mem.alloc %m2, %n : !mem.ptr<!mem.array<? x !mem.array<3 x i32>>, 0>
// CHECK-NEXT:   %m4, %b = mem.alloc %m3, %n : !mem.ptr<!mem.array<? x !mem.array<3 x i32>>, 0>
// CHECK-NEXT:   [[C3_2:%.*]] = arith.constant 3 : index
// CHECK-NEXT:   [[C0_2:%.*]] = arith.constant 0 : index
// CHECK-NEXT:   [[C1_2:%.*]] = arith.constant 1 : index
// CHECK-NEXT:   %m5 = scf.for [[I_3:%.*]] = [[C0_2]] to %n step [[C1_2]] iter_args([[ARG_3:%.*]] = %m4) -> (!mem.M<0>) {
// CHECK-NEXT:     [[FOR_2:%.*]] = scf.for [[I_4:%.*]] = [[C0_2]] to [[C3_2]] step [[C1_2]] iter_args([[ARG_4:%.*]] = [[ARG_3]]) -> (!mem.M<0>) {
// CHECK-NEXT:       [[P_5:%.*]] = mem.lea %a, [[I_3]] : !mem.ptr<!mem.array<? x !mem.array<3 x i32>>, 0>
// CHECK-NEXT:       [[P_6:%.*]] = mem.lea [[P_5]], [[I_4]] : !mem.ptr<!mem.array<3 x i32>, 0>
// CHECK-NEXT:       [[LD_3:%.*]], [[LD_4:%.*]] = mem.load [[ARG_4]], [[P_6]] : !mem.ptr<i32, 0>
// CHECK-NEXT:       [[P_7:%.*]] = mem.lea %b, [[I_3]] : !mem.ptr<!mem.array<? x !mem.array<3 x i32>>, 0>
// CHECK-NEXT:       [[P_8:%.*]] = mem.lea [[P_7]], [[I_4]] : !mem.ptr<!mem.array<3 x i32>, 0>
// CHECK-NEXT:       [[ST_2:%.*]] = mem.store [[LD_3]], [[P_8]], [[LD_4]] : !mem.ptr<i32, 0>
// CHECK-NEXT:       scf.yield [[ST_2]] : !mem.M<0>
// CHECK-NEXT:     }
// CHECK-NEXT:     scf.yield [[FOR_2]] : !mem.M<0>
// CHECK-NEXT:   }
// CHECK-NEXT:   func.return %m5, %dst, %b : !mem.M<0>, !mem.ptr<!mem.array<2 x !mem.array<3 x i32>>, 0>, !mem.ptr<!mem.array<? x !mem.array<3 x i32>>, 0>
// CHECK-NEXT: }

// -----

// buffer.print: one row per line (a newline after each innermost loop), each integer followed
// by ", "; a rank-0 buffer is one element on one line.

func.func @print_ints(%m: !mem.M<0>, %a: !buffer.buf<2x3x4xi32>, %b: !buffer.buf<index>) -> !mem.M<0> {
  %m1 = buffer.print %m, %a : !buffer.buf<2x3x4xi32>
  %m2 = buffer.print %m1, %b : !buffer.buf<index>
  func.return %m2 : !mem.M<0>
}

// CHECK:      func.func @print_ints(%m: !mem.M<0>, %a: !mem.ptr<!mem.array<2 x !mem.array<3 x !mem.array<4 x i32>>>, 0>, %b: !mem.ptr<index, 0>) -> !mem.M<0> {
// CHECK-NEXT:   [[C2:%.*]] = arith.constant 2 : index
// CHECK-NEXT:   [[C3:%.*]] = arith.constant 3 : index
// CHECK-NEXT:   [[C4:%.*]] = arith.constant 4 : index
// CHECK-NEXT:   [[C0:%.*]] = arith.constant 0 : index
// CHECK-NEXT:   [[C1:%.*]] = arith.constant 1 : index
// CHECK-NEXT:   %m1 = scf.for [[I:%.*]] = [[C0]] to [[C2]] step [[C1]] iter_args([[ARG:%.*]] = %m) -> (!mem.M<0>) {
// CHECK-NEXT:     [[FOR:%.*]] = scf.for [[I_2:%.*]] = [[C0]] to [[C3]] step [[C1]] iter_args([[ARG_2:%.*]] = [[ARG]]) -> (!mem.M<0>) {
// CHECK-NEXT:       [[P:%.*]] = mem.lea %a, [[I]] : !mem.ptr<!mem.array<2 x !mem.array<3 x !mem.array<4 x i32>>>, 0>
// CHECK-NEXT:       [[P_2:%.*]] = mem.lea [[P]], [[I_2]] : !mem.ptr<!mem.array<3 x !mem.array<4 x i32>>, 0>
// CHECK-NEXT:       [[FOR_2:%.*]] = scf.for [[I_3:%.*]] = [[C0]] to [[C4]] step [[C1]] iter_args([[ARG_3:%.*]] = [[ARG_2]]) -> (!mem.M<0>) {
// CHECK-NEXT:         [[P_3:%.*]] = mem.lea [[P_2]], [[I_3]] : !mem.ptr<!mem.array<4 x i32>, 0>
// CHECK-NEXT:         [[LD:%.*]], [[LD_2:%.*]] = mem.load [[ARG_3]], [[P_3]] : !mem.ptr<i32, 0>
// CHECK-NEXT:         printf.print_format "{}, ", [[LD_2]] : i32
// CHECK-NEXT:         scf.yield [[LD]] : !mem.M<0>
// CHECK-NEXT:       }
// CHECK-NEXT:       printf.print_format "\0A"
// CHECK-NEXT:       scf.yield [[FOR_2]] : !mem.M<0>
// CHECK-NEXT:     }
// CHECK-NEXT:     scf.yield [[FOR]] : !mem.M<0>
// CHECK-NEXT:   }
// CHECK-NEXT:   %m2, [[LD_3:%.*]] = mem.load %m1, %b : !mem.ptr<index, 0>
// CHECK-NEXT:   printf.print_format "{}, ", [[LD_3]] : index
// CHECK-NEXT:   printf.print_format "\0A"
// CHECK-NEXT:   func.return %m2 : !mem.M<0>
// CHECK-NEXT: }

// -----

// A float prints as C's "%.2f" (glibc's text): the sign bit of the value itself prints `-`; NaN
// and infinity print `nan` / `inf`; from 2^53 on the integer m * 2^s is built in a base-10^18
// limb array (a mem.slot made once, before the loops), multiplied by powers of two in i128, and
// printed limb by limb with leading zeros; below 2^53 the integer part and the fraction times
// 100 (an exact sum: Veltkamp split) are rounded half to even and printed as integers.

func.func @print_floats(%m: !mem.M<0>, %a: !buffer.buf<3xf32>) -> !mem.M<0> {
  %m1 = buffer.print %m, %a : !buffer.buf<3xf32>
  func.return %m1 : !mem.M<0>
}

// CHECK:      func.func @print_floats(%m: !mem.M<0>, %a: !mem.ptr<!mem.array<3 x f32>, 0>) -> !mem.M<0> {
// CHECK-NEXT:   [[C3:%.*]] = arith.constant 3 : index
// CHECK-NEXT:   [[M:%.*]], [[LIMBS:%.*]] = mem.slot %m : !mem.ptr<!mem.array<19 x i64>, 0>
// CHECK-NEXT:   [[Ki32:%.*]] = arith.constant 0 : i32
// CHECK-NEXT:   [[INF:%.*]] = arith.constant 0x7ff0000000000000 : f64
// CHECK-NEXT:   [[TWO53:%.*]] = arith.constant 0x4340000000000000 : f64
// CHECK:        [[LIMB:%.*]] = arith.constant 1000000000000000000 : i128
// CHECK:        %m1 = scf.for [[I:%.*]] = {{%.*}} to [[C3]] step {{%.*}} iter_args([[ARG:%.*]] = [[M]]) -> (!mem.M<0>) {
// CHECK-NEXT:     [[P:%.*]] = mem.lea %a, [[I]] : !mem.ptr<!mem.array<3 x f32>, 0>
// CHECK-NEXT:     [[LD:%.*]], [[V:%.*]] = mem.load [[ARG]], [[P]] : !mem.ptr<f32, 0>
// CHECK-NEXT:     [[X:%.*]] = arith.extf [[V]] : f32 to f64
// CHECK-NEXT:     [[BITS:%.*]] = arith.bitcast [[V]] : f32 to i32
// CHECK-NEXT:     [[NEG:%.*]] = arith.cmpi slt, [[BITS]], [[Ki32]] : i32
// CHECK-NEXT:     [[ABS:%.*]] = math.absf [[X]] : f64
// CHECK-NEXT:     scf.if [[NEG]] {
// CHECK-NEXT:       printf.print_format "-"
// CHECK-NEXT:     }
// CHECK-NEXT:     [[SPECIAL:%.*]] = arith.cmpf ueq, [[ABS]], [[INF]] : f64
// CHECK-NEXT:     [[T:%.*]] = scf.if [[SPECIAL]] -> (!mem.M<0>) {
// CHECK-NEXT:       [[NAN:%.*]] = arith.cmpf uno, [[X]], [[X]] : f64
// CHECK-NEXT:       scf.if [[NAN]] {
// CHECK-NEXT:         printf.print_format "nan, "
// CHECK-NEXT:       } else {
// CHECK-NEXT:         printf.print_format "inf, "
// CHECK-NEXT:       }
// CHECK-NEXT:       scf.yield [[LD]] : !mem.M<0>
// CHECK-NEXT:     } else {
// CHECK-NEXT:       [[HUGE:%.*]] = arith.cmpf oge, [[ABS]], [[TWO53]] : f64
// CHECK-NEXT:       [[T2:%.*]] = scf.if [[HUGE]] -> (!mem.M<0>) {
// CHECK-NEXT:         [[IB:%.*]] = arith.bitcast [[ABS]] : f64 to i64
// CHECK:              [[L0:%.*]] = mem.lea [[LIMBS]], {{%.*}} : !mem.ptr<!mem.array<19 x i64>, 0>
// CHECK-NEXT:         [[ST:%.*]] = mem.store [[LD]], [[L0]], {{%.*}} : !mem.ptr<i64, 0>
// CHECK-NEXT:         [[PS:%.*]], [[USED:%.*]] = scf.for {{.*}} iter_args({{%.*}} = [[ST]], {{.*}}) -> (!mem.M<0>, index) {
// CHECK:                scf.for {{.*}} -> (!mem.M<0>, i128) {
// CHECK:                  arith.muli {{%.*}}, {{%.*}} : i128
// CHECK:                  arith.remui {{%.*}}, [[LIMB]] : i128
// CHECK:                  arith.divui {{%.*}}, [[LIMB]] : i128
// CHECK:              [[TOP:%.*]] = arith.subi [[USED]], {{%.*}} : index
// CHECK-NEXT:         [[TL:%.*]] = mem.lea [[LIMBS]], [[TOP]] : !mem.ptr<!mem.array<19 x i64>, 0>
// CHECK-NEXT:         {{%.*}}, [[TV:%.*]] = mem.load [[PS]], [[TL]] : !mem.ptr<i64, 0>
// CHECK-NEXT:         printf.print_format "{}", [[TV]] : i64
// CHECK-NEXT:         [[PAD:%.*]] = scf.for {{.*}} to [[TOP]] {{.*}} -> (!mem.M<0>) {
// CHECK:                scf.for
// CHECK:                    printf.print_format "0"
// CHECK:                printf.print_format "{}", {{%.*}} : i64
// CHECK:              printf.print_format ".00, "
// CHECK-NEXT:         scf.yield [[PAD]] : !mem.M<0>
// CHECK-NEXT:       } else {
// CHECK-NEXT:         [[W:%.*]] = arith.fptoui [[ABS]] : f64 to i64
// CHECK-NEXT:         [[WF:%.*]] = arith.uitofp [[W]] : i64 to f64
// CHECK-NEXT:         [[FR:%.*]] = arith.subf [[ABS]], [[WF]] : f64
// CHECK:              printf.print_format "{}.{}{}, ", {{%.*}} : i64, {{%.*}} : i64, {{%.*}} : i64
// CHECK-NEXT:         scf.yield [[LD]] : !mem.M<0>
// CHECK-NEXT:       }
// CHECK-NEXT:       scf.yield [[T2]] : !mem.M<0>
// CHECK-NEXT:     }
// CHECK-NEXT:     scf.yield [[T]] : !mem.M<0>
// CHECK-NEXT:   }
// CHECK-NEXT:   printf.print_format "\0A"
// CHECK-NEXT:   func.return %m1 : !mem.M<0>
// CHECK-NEXT: }

// -----

// The device copies of lower-btensor-map-reduce: gpu.buf_alloc_copy is gpu.alloc.block (with
// the run-time extent for a `?` buffer) and gpu.copy_to_device.block; gpu.buf_copy_to_host is
// gpu.copy_to_host.block.

func.func @device(%m: !mem.M<0>, %a: !buffer.buf<2x4xf32>, %n: index) -> !mem.M<0> {
  %m0, %m1, %m4 = gpu.auto_init %m
  %c0, %c1, %d = gpu.buf_alloc_copy %m0, %m1, %a : !buffer.buf<2x4xf32> -> !mem.ptr<!mem.array<2 x !mem.array<4 x f32>>, 1>
  %h0, %b = buffer.alloc %c0(%n) : !buffer.buf<?xi8>
  %e0, %e1, %e = gpu.buf_alloc_copy %h0, %c1, %b : !buffer.buf<?xi8> -> !mem.ptr<!mem.array<? x i8>, 1>
  %g0, %g1 = gpu.buf_copy_to_host %e0, %e1, %d -> %a : !mem.ptr<!mem.array<2 x !mem.array<4 x f32>>, 1> -> !buffer.buf<2x4xf32>
  %f1 = gpu.free.block %g1, %d : !mem.ptr<!mem.array<2 x !mem.array<4 x f32>>, 1>
  %f2 = gpu.free.block %f1, %e : !mem.ptr<!mem.array<? x i8>, 1>
  %done = gpu.auto_deinit %g0, %f2, %m4
  func.return %done : !mem.M<0>
}

// CHECK:      func.func @device(%m: !mem.M<0>, %a: !mem.ptr<!mem.array<2 x !mem.array<4 x f32>>, 0>, %n: index) -> !mem.M<0> {
// CHECK-NEXT:   %m0, %m1, %m4 = gpu.auto_init %m
// CHECK-NEXT:   [[DEV:%.*]], %d = gpu.alloc.block %m1 : !mem.ptr<!mem.array<2 x !mem.array<4 x f32>>, 1>
// CHECK-NEXT:   %c0, %c1 = gpu.copy_to_device.block %m0, [[DEV]], %a -> %d : !mem.ptr<!mem.array<2 x !mem.array<4 x f32>>, 0> -> !mem.ptr<!mem.array<2 x !mem.array<4 x f32>>, 1>
// CHECK-NEXT:   %h0, %b = mem.alloc %c0, %n : !mem.ptr<!mem.array<? x i8>, 0>
// CHECK-NEXT:   [[DEV_2:%.*]], %e = gpu.alloc.block %c1, %n : !mem.ptr<!mem.array<? x i8>, 1>
// CHECK-NEXT:   %e0, %e1 = gpu.copy_to_device.block %h0, [[DEV_2]], %b -> %e : !mem.ptr<!mem.array<? x i8>, 0> -> !mem.ptr<!mem.array<? x i8>, 1>
// CHECK-NEXT:   %g0, %g1 = gpu.copy_to_host.block %e0, %e1, %d -> %a : !mem.ptr<!mem.array<2 x !mem.array<4 x f32>>, 1> -> !mem.ptr<!mem.array<2 x !mem.array<4 x f32>>, 0>
// CHECK-NEXT:   %f1 = gpu.free.block %g1, %d : !mem.ptr<!mem.array<2 x !mem.array<4 x f32>>, 1>
// CHECK-NEXT:   %f2 = gpu.free.block %f1, %e : !mem.ptr<!mem.array<? x i8>, 1>
// CHECK-NEXT:   %done = gpu.auto_deinit %g0, %f2, %m4
// CHECK-NEXT:   func.return %done : !mem.M<0>
// CHECK-NEXT: }

// -----

// A program without buffers is left as it is.

func.func @untouched(%m: !mem.M<0>, %p: !mem.ptr<!mem.array<4 x f32>, 0>, %i: index) -> (!mem.M<0>, f32) {
  %e = mem.lea %p, %i : !mem.ptr<!mem.array<4 x f32>, 0>
  %m1, %v = mem.load %m, %e : !mem.ptr<f32, 0>
  func.return %m1, %v : !mem.M<0>, f32
}

// CHECK:      func.func @untouched(%m: !mem.M<0>, %p: !mem.ptr<!mem.array<4 x f32>, 0>, %i: index) -> (!mem.M<0>, f32) {
// CHECK-NEXT:   %e = mem.lea %p, %i : !mem.ptr<!mem.array<4 x f32>, 0>
// CHECK-NEXT:   %m1, %v = mem.load %m, %e : !mem.ptr<f32, 0>
// CHECK-NEXT:   func.return %m1, %v : !mem.M<0>, f32
// CHECK-NEXT: }

// The examples (the RUN lines at the top) down to mem ops: examples/matmul.mlir through the
// CPU path, from the product on (its literals are lowered as in @init) ...

// MATMUL-CPU:        %zero = arith.constant 0.000000e+00 : f32
// MATMUL-CPU-NEXT:   [[ALLOC_3:%.*]], %c = mem.alloc %m2 : !mem.ptr<!mem.array<4 x !mem.array<4 x f32>>, 0>
// MATMUL-CPU-NEXT:   [[C4_3:%.*]] = arith.constant 4 : index
// MATMUL-CPU-NEXT:   [[C8:%.*]] = arith.constant 8 : index
// MATMUL-CPU-NEXT:   [[C0_3:%.*]] = arith.constant 0 : index
// MATMUL-CPU-NEXT:   [[C1_3:%.*]] = arith.constant 1 : index
// MATMUL-CPU-NEXT:   %m3 = scf.for [[I:%.*]] = [[C0_3]] to [[C4_3]] step [[C1_3]] iter_args([[ARG:%.*]] = [[ALLOC_3]]) -> (!mem.M<0>) {
// MATMUL-CPU-NEXT:     [[FOR:%.*]] = scf.for [[I_2:%.*]] = [[C0_3]] to [[C4_3]] step [[C1_3]] iter_args([[ARG_2:%.*]] = [[ARG]]) -> (!mem.M<0>) {
// MATMUL-CPU-NEXT:       [[FOR_2:%.*]], [[FOR_3:%.*]] = scf.for [[I_3:%.*]] = [[C0_3]] to [[C8]] step [[C1_3]] iter_args([[ARG_3:%.*]] = [[ARG_2]], [[ARG_4:%.*]] = %zero) -> (!mem.M<0>, f32) {
// MATMUL-CPU-NEXT:         [[P_77:%.*]] = mem.lea %a, [[I]] : !mem.ptr<!mem.array<4 x !mem.array<8 x f32>>, 0>
// MATMUL-CPU-NEXT:         [[P_78:%.*]] = mem.lea [[P_77]], [[I_3]] : !mem.ptr<!mem.array<8 x f32>, 0>
// MATMUL-CPU-NEXT:         [[LD:%.*]], [[LD_2:%.*]] = mem.load [[ARG_3]], [[P_78]] : !mem.ptr<f32, 0>
// MATMUL-CPU-NEXT:         [[P_79:%.*]] = mem.lea %b, [[I_3]] : !mem.ptr<!mem.array<8 x !mem.array<4 x f32>>, 0>
// MATMUL-CPU-NEXT:         [[P_80:%.*]] = mem.lea [[P_79]], [[I_2]] : !mem.ptr<!mem.array<4 x f32>, 0>
// MATMUL-CPU-NEXT:         [[LD_3:%.*]], [[LD_4:%.*]] = mem.load [[LD]], [[P_80]] : !mem.ptr<f32, 0>
// MATMUL-CPU-NEXT:         %p = arith.mulf [[LD_2]], [[LD_4]] : f32
// MATMUL-CPU-NEXT:         %s = arith.addf [[ARG_4]], %p : f32
// MATMUL-CPU-NEXT:         scf.yield [[LD_3]], %s : !mem.M<0>, f32
// MATMUL-CPU-NEXT:       }
// MATMUL-CPU-NEXT:       [[P_81:%.*]] = mem.lea %c, [[I]] : !mem.ptr<!mem.array<4 x !mem.array<4 x f32>>, 0>
// MATMUL-CPU-NEXT:       [[P_82:%.*]] = mem.lea [[P_81]], [[I_2]] : !mem.ptr<!mem.array<4 x f32>, 0>
// MATMUL-CPU-NEXT:       [[ST_63:%.*]] = mem.store [[FOR_2]], [[P_82]], [[FOR_3]] : !mem.ptr<f32, 0>
// MATMUL-CPU-NEXT:       scf.yield [[ST_63]] : !mem.M<0>
// MATMUL-CPU-NEXT:     }
// MATMUL-CPU-NEXT:     scf.yield [[FOR]] : !mem.M<0>
// MATMUL-CPU-NEXT:   }
// MATMUL-CPU-NEXT:   [[C4_4:%.*]] = arith.constant 4 : index
// MATMUL-CPU-NEXT:   [[M3:%.*]], [[LIMBS:%.*]] = mem.slot %m3 : !mem.ptr<!mem.array<19 x i64>, 0>
// MATMUL-CPU:        %m4 = scf.for [[I_4:%.*]] = [[C0_4:%.*]] to [[C4_4]] step [[C1_4:%.*]] iter_args([[ARG_5:%.*]] = [[M3]]) -> (!mem.M<0>) {
// MATMUL-CPU-NEXT:     [[P_83:%.*]] = mem.lea %c, [[I_4]] : !mem.ptr<!mem.array<4 x !mem.array<4 x f32>>, 0>
// MATMUL-CPU-NEXT:     [[FOR_4:%.*]] = scf.for [[I_5:%.*]] = [[C0_4]] to [[C4_4]] step [[C1_4]] iter_args([[ARG_6:%.*]] = [[ARG_5]]) -> (!mem.M<0>) {
// MATMUL-CPU-NEXT:       [[P_84:%.*]] = mem.lea [[P_83]], [[I_5]] : !mem.ptr<!mem.array<4 x f32>, 0>
// MATMUL-CPU-NEXT:       [[LD_5:%.*]], [[LD_6:%.*]] = mem.load [[ARG_6]], [[P_84]] : !mem.ptr<f32, 0>
// MATMUL-CPU-NEXT:       [[EXTF:%.*]] = arith.extf [[LD_6]] : f32 to f64
// MATMUL-CPU:            printf.print_format "nan, "
// MATMUL-CPU:            printf.print_format "inf, "
// MATMUL-CPU:            mem.lea [[LIMBS]]
// MATMUL-CPU:            printf.print_format ".00, "
// MATMUL-CPU:            printf.print_format "{}.{}{}, "
// MATMUL-CPU:          printf.print_format "\0A"
// MATMUL-CPU-NEXT:     scf.yield [[FOR_4]] : !mem.M<0>
// MATMUL-CPU-NEXT:   }
// MATMUL-CPU-NEXT:   func.return %m4 : !mem.M<0>
// MATMUL-CPU-NEXT: }

// ... and examples/bias_relu.mlir through the GPU path: the inputs' literals, the device copies
// and the host buffer of lower-btensor-map-reduce, the printing of the result.

// BIAS-RELU-GPU:      func.func @map_reduce_kernel_0(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>, %group_id: index, %item_id: index, %in0: !mem.ptr<!mem.array<2 x !mem.array<3 x i32>>, 1>, %in1: !mem.ptr<!mem.array<3 x !mem.array<4 x i32>>, 1>, %post0: !mem.ptr<!mem.array<4 x i32>, 1>, %out: !mem.ptr<!mem.array<2 x !mem.array<4 x i32>>, 1>) -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
// BIAS-RELU-GPU-NEXT:   %zero = arith.constant 0 : i32
// BIAS-RELU-GPU-NEXT:   [[C8:%.*]] = arith.constant 8 : index
// BIAS-RELU-GPU-NEXT:   [[MULI:%.*]] = arith.muli %group_id, [[C8]] : index
// BIAS-RELU-GPU-NEXT:   %flat = arith.addi [[MULI]], %item_id : index
// BIAS-RELU-GPU-NEXT:   [[C4:%.*]] = arith.constant 4 : index
// BIAS-RELU-GPU-NEXT:   [[C3:%.*]] = arith.constant 3 : index
// BIAS-RELU-GPU-NEXT:   [[C0:%.*]] = arith.constant 0 : index
// BIAS-RELU-GPU-NEXT:   [[C1:%.*]] = arith.constant 1 : index
// BIAS-RELU-GPU-NEXT:   [[DIVUI:%.*]] = arith.divui %flat, [[C4]] : index
// BIAS-RELU-GPU-NEXT:   [[REMUI:%.*]] = arith.remui %flat, [[C4]] : index
// BIAS-RELU-GPU-NEXT:   [[FOR:%.*]], [[FOR_2:%.*]] = scf.for [[I:%.*]] = [[C0]] to [[C3]] step [[C1]] iter_args([[ARG:%.*]] = %m1, [[ARG_2:%.*]] = %zero) -> (!mem.M<1>, i32) {
// BIAS-RELU-GPU-NEXT:     [[P:%.*]] = mem.lea %in0, [[DIVUI]] : !mem.ptr<!mem.array<2 x !mem.array<3 x i32>>, 1>
// BIAS-RELU-GPU-NEXT:     [[P_2:%.*]] = mem.lea [[P]], [[I]] : !mem.ptr<!mem.array<3 x i32>, 1>
// BIAS-RELU-GPU-NEXT:     [[LD:%.*]], [[LD_2:%.*]] = mem.load [[ARG]], [[P_2]] : !mem.ptr<i32, 1>
// BIAS-RELU-GPU-NEXT:     [[P_3:%.*]] = mem.lea %in1, [[I]] : !mem.ptr<!mem.array<3 x !mem.array<4 x i32>>, 1>
// BIAS-RELU-GPU-NEXT:     [[P_4:%.*]] = mem.lea [[P_3]], [[REMUI]] : !mem.ptr<!mem.array<4 x i32>, 1>
// BIAS-RELU-GPU-NEXT:     [[LD_3:%.*]], [[LD_4:%.*]] = mem.load [[LD]], [[P_4]] : !mem.ptr<i32, 1>
// BIAS-RELU-GPU-NEXT:     %p = arith.muli [[LD_2]], [[LD_4]] : i32
// BIAS-RELU-GPU-NEXT:     %s = arith.addi [[ARG_2]], %p : i32
// BIAS-RELU-GPU-NEXT:     scf.yield [[LD_3]], %s : !mem.M<1>, i32
// BIAS-RELU-GPU-NEXT:   }
// BIAS-RELU-GPU-NEXT:   [[P_5:%.*]] = mem.lea %post0, [[REMUI]] : !mem.ptr<!mem.array<4 x i32>, 1>
// BIAS-RELU-GPU-NEXT:   [[LD_5:%.*]], [[LD_6:%.*]] = mem.load [[FOR]], [[P_5]] : !mem.ptr<i32, 1>
// BIAS-RELU-GPU-NEXT:   %z = arith.constant 0 : i32
// BIAS-RELU-GPU-NEXT:   %v = arith.addi [[FOR_2]], [[LD_6]] : i32
// BIAS-RELU-GPU-NEXT:   %r = arith.maxsi %v, %z : i32
// BIAS-RELU-GPU-NEXT:   [[P_6:%.*]] = mem.lea %out, [[DIVUI]] : !mem.ptr<!mem.array<2 x !mem.array<4 x i32>>, 1>
// BIAS-RELU-GPU-NEXT:   [[P_7:%.*]] = mem.lea [[P_6]], [[REMUI]] : !mem.ptr<!mem.array<4 x i32>, 1>
// BIAS-RELU-GPU-NEXT:   [[ST:%.*]] = mem.store [[LD_5]], [[P_7]], %r : !mem.ptr<i32, 1>
// BIAS-RELU-GPU-NEXT:   func.return [[ST]], %m3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
// BIAS-RELU-GPU-NEXT: }
// BIAS-RELU-GPU-NEXT: func.func @main(%m: !mem.M<0>) -> !mem.M<0> {
// BIAS-RELU-GPU-NEXT:   [[ALLOC:%.*]], %x = mem.alloc %m : !mem.ptr<!mem.array<2 x !mem.array<3 x i32>>, 0>
// BIAS-RELU-GPU-NEXT:   [[C0_2:%.*]] = arith.constant 0 : index
// BIAS-RELU-GPU-NEXT:   [[P_8:%.*]] = mem.lea %x, [[C0_2]] : !mem.ptr<!mem.array<2 x !mem.array<3 x i32>>, 0>
// BIAS-RELU-GPU-NEXT:   [[P_9:%.*]] = mem.lea [[P_8]], [[C0_2]] : !mem.ptr<!mem.array<3 x i32>, 0>
// BIAS-RELU-GPU-NEXT:   [[Ki32:%.*]] = arith.constant 1 : i32
// BIAS-RELU-GPU-NEXT:   [[ST_2:%.*]] = mem.store [[ALLOC]], [[P_9]], [[Ki32]] : !mem.ptr<i32, 0>
// BIAS-RELU-GPU-NEXT:   [[C1_2:%.*]] = arith.constant 1 : index
// BIAS-RELU-GPU-NEXT:   [[P_10:%.*]] = mem.lea [[P_8]], [[C1_2]] : !mem.ptr<!mem.array<3 x i32>, 0>
// BIAS-RELU-GPU-NEXT:   [[Ki32_2:%.*]] = arith.constant -2 : i32
// BIAS-RELU-GPU-NEXT:   [[ST_3:%.*]] = mem.store [[ST_2]], [[P_10]], [[Ki32_2]] : !mem.ptr<i32, 0>
// BIAS-RELU-GPU-NEXT:   [[C2:%.*]] = arith.constant 2 : index
// BIAS-RELU-GPU-NEXT:   [[P_11:%.*]] = mem.lea [[P_8]], [[C2]] : !mem.ptr<!mem.array<3 x i32>, 0>
// BIAS-RELU-GPU-NEXT:   [[Ki32_3:%.*]] = arith.constant 3 : i32
// BIAS-RELU-GPU-NEXT:   [[ST_4:%.*]] = mem.store [[ST_3]], [[P_11]], [[Ki32_3]] : !mem.ptr<i32, 0>
// BIAS-RELU-GPU-NEXT:   [[P_12:%.*]] = mem.lea %x, [[C1_2]] : !mem.ptr<!mem.array<2 x !mem.array<3 x i32>>, 0>
// BIAS-RELU-GPU-NEXT:   [[P_13:%.*]] = mem.lea [[P_12]], [[C0_2]] : !mem.ptr<!mem.array<3 x i32>, 0>
// BIAS-RELU-GPU-NEXT:   [[Ki32_4:%.*]] = arith.constant -4 : i32
// BIAS-RELU-GPU-NEXT:   [[ST_5:%.*]] = mem.store [[ST_4]], [[P_13]], [[Ki32_4]] : !mem.ptr<i32, 0>
// BIAS-RELU-GPU-NEXT:   [[P_14:%.*]] = mem.lea [[P_12]], [[C1_2]] : !mem.ptr<!mem.array<3 x i32>, 0>
// BIAS-RELU-GPU-NEXT:   [[Ki32_5:%.*]] = arith.constant 5 : i32
// BIAS-RELU-GPU-NEXT:   [[ST_6:%.*]] = mem.store [[ST_5]], [[P_14]], [[Ki32_5]] : !mem.ptr<i32, 0>
// BIAS-RELU-GPU-NEXT:   [[P_15:%.*]] = mem.lea [[P_12]], [[C2]] : !mem.ptr<!mem.array<3 x i32>, 0>
// BIAS-RELU-GPU-NEXT:   [[Ki32_6:%.*]] = arith.constant -6 : i32
// BIAS-RELU-GPU-NEXT:   %m1 = mem.store [[ST_6]], [[P_15]], [[Ki32_6]] : !mem.ptr<i32, 0>
// BIAS-RELU-GPU-NEXT:   [[ALLOC_2:%.*]], %w = mem.alloc %m1 : !mem.ptr<!mem.array<3 x !mem.array<4 x i32>>, 0>
// BIAS-RELU-GPU-NEXT:   [[C0_3:%.*]] = arith.constant 0 : index
// BIAS-RELU-GPU-NEXT:   [[P_16:%.*]] = mem.lea %w, [[C0_3]] : !mem.ptr<!mem.array<3 x !mem.array<4 x i32>>, 0>
// BIAS-RELU-GPU-NEXT:   [[P_17:%.*]] = mem.lea [[P_16]], [[C0_3]] : !mem.ptr<!mem.array<4 x i32>, 0>
// BIAS-RELU-GPU-NEXT:   [[Ki32_7:%.*]] = arith.constant 1 : i32
// BIAS-RELU-GPU-NEXT:   [[ST_7:%.*]] = mem.store [[ALLOC_2]], [[P_17]], [[Ki32_7]] : !mem.ptr<i32, 0>
// BIAS-RELU-GPU-NEXT:   [[C1_3:%.*]] = arith.constant 1 : index
// BIAS-RELU-GPU-NEXT:   [[P_18:%.*]] = mem.lea [[P_16]], [[C1_3]] : !mem.ptr<!mem.array<4 x i32>, 0>
// BIAS-RELU-GPU-NEXT:   [[Ki32_8:%.*]] = arith.constant 0 : i32
// BIAS-RELU-GPU-NEXT:   [[ST_8:%.*]] = mem.store [[ST_7]], [[P_18]], [[Ki32_8]] : !mem.ptr<i32, 0>
// BIAS-RELU-GPU-NEXT:   [[C2_2:%.*]] = arith.constant 2 : index
// BIAS-RELU-GPU-NEXT:   [[P_19:%.*]] = mem.lea [[P_16]], [[C2_2]] : !mem.ptr<!mem.array<4 x i32>, 0>
// BIAS-RELU-GPU-NEXT:   [[Ki32_9:%.*]] = arith.constant -1 : i32
// BIAS-RELU-GPU-NEXT:   [[ST_9:%.*]] = mem.store [[ST_8]], [[P_19]], [[Ki32_9]] : !mem.ptr<i32, 0>
// BIAS-RELU-GPU-NEXT:   [[C3_2:%.*]] = arith.constant 3 : index
// BIAS-RELU-GPU-NEXT:   [[P_20:%.*]] = mem.lea [[P_16]], [[C3_2]] : !mem.ptr<!mem.array<4 x i32>, 0>
// BIAS-RELU-GPU-NEXT:   [[Ki32_10:%.*]] = arith.constant 2 : i32
// BIAS-RELU-GPU-NEXT:   [[ST_10:%.*]] = mem.store [[ST_9]], [[P_20]], [[Ki32_10]] : !mem.ptr<i32, 0>
// BIAS-RELU-GPU-NEXT:   [[P_21:%.*]] = mem.lea %w, [[C1_3]] : !mem.ptr<!mem.array<3 x !mem.array<4 x i32>>, 0>
// BIAS-RELU-GPU-NEXT:   [[P_22:%.*]] = mem.lea [[P_21]], [[C0_3]] : !mem.ptr<!mem.array<4 x i32>, 0>
// BIAS-RELU-GPU-NEXT:   [[ST_11:%.*]] = mem.store [[ST_10]], [[P_22]], [[Ki32_8]] : !mem.ptr<i32, 0>
// BIAS-RELU-GPU-NEXT:   [[P_23:%.*]] = mem.lea [[P_21]], [[C1_3]] : !mem.ptr<!mem.array<4 x i32>, 0>
// BIAS-RELU-GPU-NEXT:   [[ST_12:%.*]] = mem.store [[ST_11]], [[P_23]], [[Ki32_7]] : !mem.ptr<i32, 0>
// BIAS-RELU-GPU-NEXT:   [[P_24:%.*]] = mem.lea [[P_21]], [[C2_2]] : !mem.ptr<!mem.array<4 x i32>, 0>
// BIAS-RELU-GPU-NEXT:   [[ST_13:%.*]] = mem.store [[ST_12]], [[P_24]], [[Ki32_7]] : !mem.ptr<i32, 0>
// BIAS-RELU-GPU-NEXT:   [[P_25:%.*]] = mem.lea [[P_21]], [[C3_2]] : !mem.ptr<!mem.array<4 x i32>, 0>
// BIAS-RELU-GPU-NEXT:   [[ST_14:%.*]] = mem.store [[ST_13]], [[P_25]], [[Ki32_9]] : !mem.ptr<i32, 0>
// BIAS-RELU-GPU-NEXT:   [[P_26:%.*]] = mem.lea %w, [[C2_2]] : !mem.ptr<!mem.array<3 x !mem.array<4 x i32>>, 0>
// BIAS-RELU-GPU-NEXT:   [[P_27:%.*]] = mem.lea [[P_26]], [[C0_3]] : !mem.ptr<!mem.array<4 x i32>, 0>
// BIAS-RELU-GPU-NEXT:   [[ST_15:%.*]] = mem.store [[ST_14]], [[P_27]], [[Ki32_10]] : !mem.ptr<i32, 0>
// BIAS-RELU-GPU-NEXT:   [[P_28:%.*]] = mem.lea [[P_26]], [[C1_3]] : !mem.ptr<!mem.array<4 x i32>, 0>
// BIAS-RELU-GPU-NEXT:   [[ST_16:%.*]] = mem.store [[ST_15]], [[P_28]], [[Ki32_9]] : !mem.ptr<i32, 0>
// BIAS-RELU-GPU-NEXT:   [[P_29:%.*]] = mem.lea [[P_26]], [[C2_2]] : !mem.ptr<!mem.array<4 x i32>, 0>
// BIAS-RELU-GPU-NEXT:   [[ST_17:%.*]] = mem.store [[ST_16]], [[P_29]], [[Ki32_8]] : !mem.ptr<i32, 0>
// BIAS-RELU-GPU-NEXT:   [[P_30:%.*]] = mem.lea [[P_26]], [[C3_2]] : !mem.ptr<!mem.array<4 x i32>, 0>
// BIAS-RELU-GPU-NEXT:   %m2 = mem.store [[ST_17]], [[P_30]], [[Ki32_7]] : !mem.ptr<i32, 0>
// BIAS-RELU-GPU-NEXT:   [[ALLOC_3:%.*]], %bias = mem.alloc %m2 : !mem.ptr<!mem.array<4 x i32>, 0>
// BIAS-RELU-GPU-NEXT:   [[C0_4:%.*]] = arith.constant 0 : index
// BIAS-RELU-GPU-NEXT:   [[P_31:%.*]] = mem.lea %bias, [[C0_4]] : !mem.ptr<!mem.array<4 x i32>, 0>
// BIAS-RELU-GPU-NEXT:   [[Ki32_11:%.*]] = arith.constant -3 : i32
// BIAS-RELU-GPU-NEXT:   [[ST_18:%.*]] = mem.store [[ALLOC_3]], [[P_31]], [[Ki32_11]] : !mem.ptr<i32, 0>
// BIAS-RELU-GPU-NEXT:   [[C1_4:%.*]] = arith.constant 1 : index
// BIAS-RELU-GPU-NEXT:   [[P_32:%.*]] = mem.lea %bias, [[C1_4]] : !mem.ptr<!mem.array<4 x i32>, 0>
// BIAS-RELU-GPU-NEXT:   [[Ki32_12:%.*]] = arith.constant 2 : i32
// BIAS-RELU-GPU-NEXT:   [[ST_19:%.*]] = mem.store [[ST_18]], [[P_32]], [[Ki32_12]] : !mem.ptr<i32, 0>
// BIAS-RELU-GPU-NEXT:   [[C2_3:%.*]] = arith.constant 2 : index
// BIAS-RELU-GPU-NEXT:   [[P_33:%.*]] = mem.lea %bias, [[C2_3]] : !mem.ptr<!mem.array<4 x i32>, 0>
// BIAS-RELU-GPU-NEXT:   [[Ki32_13:%.*]] = arith.constant 0 : i32
// BIAS-RELU-GPU-NEXT:   [[ST_20:%.*]] = mem.store [[ST_19]], [[P_33]], [[Ki32_13]] : !mem.ptr<i32, 0>
// BIAS-RELU-GPU-NEXT:   [[C3_3:%.*]] = arith.constant 3 : index
// BIAS-RELU-GPU-NEXT:   [[P_34:%.*]] = mem.lea %bias, [[C3_3]] : !mem.ptr<!mem.array<4 x i32>, 0>
// BIAS-RELU-GPU-NEXT:   [[Ki32_14:%.*]] = arith.constant 1 : i32
// BIAS-RELU-GPU-NEXT:   %m3 = mem.store [[ST_20]], [[P_34]], [[Ki32_14]] : !mem.ptr<i32, 0>
// BIAS-RELU-GPU-NEXT:   %zero = arith.constant 0 : i32
// BIAS-RELU-GPU-NEXT:   [[S:%.*]], [[S_2:%.*]], [[S_3:%.*]] = gpu.auto_init %m3
// BIAS-RELU-GPU-NEXT:   [[DEV:%.*]], %x_dev = gpu.alloc.block [[S_2]] : !mem.ptr<!mem.array<2 x !mem.array<3 x i32>>, 1>
// BIAS-RELU-GPU-NEXT:   [[TD:%.*]], [[TD_2:%.*]] = gpu.copy_to_device.block [[S]], [[DEV]], %x -> %x_dev : !mem.ptr<!mem.array<2 x !mem.array<3 x i32>>, 0> -> !mem.ptr<!mem.array<2 x !mem.array<3 x i32>>, 1>
// BIAS-RELU-GPU-NEXT:   [[DEV_2:%.*]], %w_dev = gpu.alloc.block [[TD_2]] : !mem.ptr<!mem.array<3 x !mem.array<4 x i32>>, 1>
// BIAS-RELU-GPU-NEXT:   [[TD_3:%.*]], [[TD_4:%.*]] = gpu.copy_to_device.block [[TD]], [[DEV_2]], %w -> %w_dev : !mem.ptr<!mem.array<3 x !mem.array<4 x i32>>, 0> -> !mem.ptr<!mem.array<3 x !mem.array<4 x i32>>, 1>
// BIAS-RELU-GPU-NEXT:   [[DEV_3:%.*]], %bias_dev = gpu.alloc.block [[TD_4]] : !mem.ptr<!mem.array<4 x i32>, 1>
// BIAS-RELU-GPU-NEXT:   [[TD_5:%.*]], [[TD_6:%.*]] = gpu.copy_to_device.block [[TD_3]], [[DEV_3]], %bias -> %bias_dev : !mem.ptr<!mem.array<4 x i32>, 0> -> !mem.ptr<!mem.array<4 x i32>, 1>
// BIAS-RELU-GPU-NEXT:   [[DEV_4:%.*]], %y_dev = gpu.alloc.block [[TD_6]] : !mem.ptr<!mem.array<2 x !mem.array<4 x i32>>, 1>
// BIAS-RELU-GPU-NEXT:   [[STREAM:%.*]] = gpu.default_stream
// BIAS-RELU-GPU-NEXT:   [[C1_5:%.*]] = arith.constant 1 : index
// BIAS-RELU-GPU-NEXT:   [[C8_2:%.*]] = arith.constant 8 : index
// BIAS-RELU-GPU-NEXT:   [[L:%.*]], [[L_2:%.*]], [[L_3:%.*]] = gpu.launch @map_reduce_kernel_0 grid([[C1_5]], [[C8_2]]) stream([[STREAM]]) mems([[TD_5]], [[DEV_4]], [[S_3]]) args(%x_dev, %w_dev, %bias_dev, %y_dev) : (!mem.ptr<!mem.array<2 x !mem.array<3 x i32>>, 1>, !mem.ptr<!mem.array<3 x !mem.array<4 x i32>>, 1>, !mem.ptr<!mem.array<4 x i32>, 1>, !mem.ptr<!mem.array<2 x !mem.array<4 x i32>>, 1>)
// BIAS-RELU-GPU-NEXT:   [[ALLOC_4:%.*]], %y = mem.alloc [[L]] : !mem.ptr<!mem.array<2 x !mem.array<4 x i32>>, 0>
// BIAS-RELU-GPU-NEXT:   [[TH:%.*]], [[TH_2:%.*]] = gpu.copy_to_host.block [[ALLOC_4]], [[L_2]], %y_dev -> %y : !mem.ptr<!mem.array<2 x !mem.array<4 x i32>>, 1> -> !mem.ptr<!mem.array<2 x !mem.array<4 x i32>>, 0>
// BIAS-RELU-GPU-NEXT:   [[FR:%.*]] = gpu.free.block [[TH_2]], %x_dev : !mem.ptr<!mem.array<2 x !mem.array<3 x i32>>, 1>
// BIAS-RELU-GPU-NEXT:   [[FR_2:%.*]] = gpu.free.block [[FR]], %w_dev : !mem.ptr<!mem.array<3 x !mem.array<4 x i32>>, 1>
// BIAS-RELU-GPU-NEXT:   [[FR_3:%.*]] = gpu.free.block [[FR_2]], %bias_dev : !mem.ptr<!mem.array<4 x i32>, 1>
// BIAS-RELU-GPU-NEXT:   [[FR_4:%.*]] = gpu.free.block [[FR_3]], %y_dev : !mem.ptr<!mem.array<2 x !mem.array<4 x i32>>, 1>
// BIAS-RELU-GPU-NEXT:   %m4 = gpu.auto_deinit [[TH]], [[FR_4]], [[L_3]]
// BIAS-RELU-GPU-NEXT:   [[C2_4:%.*]] = arith.constant 2 : index
// BIAS-RELU-GPU-NEXT:   [[C4_2:%.*]] = arith.constant 4 : index
// BIAS-RELU-GPU-NEXT:   [[C0_5:%.*]] = arith.constant 0 : index
// BIAS-RELU-GPU-NEXT:   [[C1_6:%.*]] = arith.constant 1 : index
// BIAS-RELU-GPU-NEXT:   %m5 = scf.for [[I_2:%.*]] = [[C0_5]] to [[C2_4]] step [[C1_6]] iter_args([[ARG_3:%.*]] = %m4) -> (!mem.M<0>) {
// BIAS-RELU-GPU-NEXT:     [[P_35:%.*]] = mem.lea %y, [[I_2]] : !mem.ptr<!mem.array<2 x !mem.array<4 x i32>>, 0>
// BIAS-RELU-GPU-NEXT:     [[FOR_3:%.*]] = scf.for [[I_3:%.*]] = [[C0_5]] to [[C4_2]] step [[C1_6]] iter_args([[ARG_4:%.*]] = [[ARG_3]]) -> (!mem.M<0>) {
// BIAS-RELU-GPU-NEXT:       [[P_36:%.*]] = mem.lea [[P_35]], [[I_3]] : !mem.ptr<!mem.array<4 x i32>, 0>
// BIAS-RELU-GPU-NEXT:       [[LD_7:%.*]], [[LD_8:%.*]] = mem.load [[ARG_4]], [[P_36]] : !mem.ptr<i32, 0>
// BIAS-RELU-GPU-NEXT:       printf.print_format "{}, ", [[LD_8]] : i32
// BIAS-RELU-GPU-NEXT:       scf.yield [[LD_7]] : !mem.M<0>
// BIAS-RELU-GPU-NEXT:     }
// BIAS-RELU-GPU-NEXT:     printf.print_format "\0A"
// BIAS-RELU-GPU-NEXT:     scf.yield [[FOR_3]] : !mem.M<0>
// BIAS-RELU-GPU-NEXT:   }
// BIAS-RELU-GPU-NEXT:   func.return %m5 : !mem.M<0>
// BIAS-RELU-GPU-NEXT: }
