// @main's arguments are read as its parameter types, its results printed as gpu-run prints
// them: integers in decimal (signed), floats as the shortest text that reads back to the same
// value of their type. printf output comes first, in program order.
// RUN: gpu-run %s --provider interp 127 -1 0x10 16777216 1 0.1 0.2 0.1 | filecheck %s
// RUN: gpu-run %s --provider interp -128 -9223372036854775808 -1 -1e5 -inf 1e308 1e308 65504 | filecheck %s --check-prefix=EDGES
// RUN: not gpu-run %s --provider interp 200 0 0 0 0 0 0 0 2>&1 | filecheck %s --check-prefix=RANGE
// RUN: not gpu-run %s --provider cpu 200 0 0 0 0 0 0 0 2>&1 | filecheck %s --check-prefix=RANGE
// RUN: not gpu-run %s --provider interp 0x100 0 0 0 0 0 0 0 2>&1 | filecheck %s --check-prefix=WIDE
// RUN: gpu-run %s --provider cpu 0xc8 0 0 0 0 0 0 0 | filecheck %s --check-prefix=BITS
// RUN: not gpu-run %s --provider interp 1 2 3 2>&1 | filecheck %s --check-prefix=COUNT
// RUN: not gpu-run %s --provider interp 1 2 3 x 0 0 0 0 2>&1 | filecheck %s --check-prefix=FLOAT

// i8 127 + 1 wraps to -128; i64 -1 - 1; index 16 + 1; f32 2^24 + 1 rounds back to 2^24 (numpy
// prints it 1.6777216e+07); f64 0.1 + 0.2; f16 0.1 + 0.2 (0.2998, the nearest f16).
// CHECK:      main(127, -1)
// CHECK-NEXT: -128
// CHECK-NEXT: -2
// CHECK-NEXT: 17
// CHECK-NEXT: 1.6777216e+07
// CHECK-NEXT: 0.30000000000000004
// CHECK-NEXT: 0.2998
// CHECK-EMPTY:

// i8 -128 + 1 = -127; i64 min - 1 wraps to max; index -1 + 1 = 0; f32: -1e5 + -inf = -inf;
// f64 1e308 + 1e308 overflows to inf; f16: 65504 (its largest) + 0.2 rounds back to 65504,
// which numpy prints 6.55e+04.
// EDGES:      main(-128, -9223372036854775808)
// EDGES-NEXT: -127
// EDGES-NEXT: 9223372036854775807
// EDGES-NEXT: 0
// EDGES-NEXT: -inf
// EDGES-NEXT: inf
// EDGES-NEXT: 6.55e+04
// EDGES-EMPTY:

// An i8 argument is a number from -128 to 127; 200 is not one. Its bit pattern may be written in
// hex (0xc8 reads as -56), but no wider.
// RANGE: {{.*}}arguments.mlir:{{[0-9]+}}:1: error: argument 1 of @main: 200 does not fit in i8 (from -128 to 127; a bit pattern may be written in hex, up to 0xff)
// WIDE: {{.*}}arguments.mlir:{{[0-9]+}}:1: error: argument 1 of @main: 256 does not fit in i8 (from -128 to 127; a bit pattern may be written in hex, up to 0xff)
// BITS:      main(-56, 0)
// BITS-NEXT: -55

// Argument errors point at @main's definition, which says what it takes.
// COUNT: {{.*}}arguments.mlir:{{[0-9]+}}:1: error: @main takes 8 argument(s) (i8, i64, index, f32, f32, f64, f64, f16), got 3
// COUNT-NEXT: func.func @main(%m: !mem.M<0>, %a: i8
// FLOAT: {{.*}}arguments.mlir:{{[0-9]+}}:1: error: argument 4 of @main: 'x' is not a number (expected f32)

func.func @main(%m: !mem.M<0>, %a: i8, %b: i64, %c: index, %x: f32, %y: f32, %p: f64, %q: f64,
                %h: f16) -> (!mem.M<0>, i8, i64, index, f32, f64, f16) {
  printf.print_format "main({}, {})\n", %a : i8, %b : i64
  %one8 = arith.constant 1 : i8
  %one64 = arith.constant -1 : i64
  %onei = arith.constant 1 : index
  %a1 = arith.addi %a, %one8 : i8
  %b1 = arith.addi %b, %one64 : i64
  %c1 = arith.addi %c, %onei : index
  %s = arith.addf %x, %y : f32
  %t = arith.addf %p, %q : f64
  %fifth = arith.constant 0.2 : f16
  %u = arith.addf %h, %fifth : f16
  func.return %m, %a1, %b1, %c1, %s, %t, %u : !mem.M<0>, i8, i64, index, f32, f64, f16
}
