// buffer.print prints floats as C's printf("%.2f", (double)v): the CHECK lines are glibc's
// output (snprintf "%.2f" of each value, computed with ctypes), for halfway cases (0.125,
// 2.675, 0.005), -0.0, huge integers (2^64, 2^64 + ulp, 1e23, the largest double: 309 digits),
// infinities, NaNs with both signs and subnormals, in f64, f32 and f16. The values are bit
// patterns (a dense literal of integers) bitcast to floats, so that inf and NaN can be written.
// Through buffer-lower-ptr's IR (the default pipeline and the CPU path) on both providers, and
// through the host executor's own buffer.print (an empty pipeline).
// RUN: gpu-run %s --provider interp | filecheck %s
// RUN: gpu-run %s --provider cpu | filecheck %s
// RUN: gpu-run %s --provider cpu -p btensor-lower-map-reduce,buffer-lower-ptr | filecheck %s
// RUN: gpu-run %s --provider interp -p "" | filecheck %s

func.func @main(%m0: !mem.M<0>) -> !mem.M<0> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %m1, %b64 = buffer.init %m0 dense<[[4593671619917905920, 4600427019358961664, 4613205983301625446, 4572414629676717179, 4636736939510915400, -9223372036854775808, -4661117527937406468], [4831355200913801220, 4845873199050653696, 4895412794951729152, 4895412794951729153, 4936209963552724370, 4950912855330343670, 0], [9218868437227405311, 0, 0, 0, 0, 0, 0], [9218868437227405312, -4503599627370496, 9221120237041090560, -2251799813685248, 1, -4584984176236708233, 0]]> : tensor<4x7xi64>
  %m2, %f64 = buffer.alloc %m1 : !buffer.buf<4x7xf64>
  %m3 = scf.for %i = %c0 to %c4 step %c1 iter_args(%t = %m2) -> (!mem.M<0>) {
    %t1 = scf.for %j = %c0 to %c7 step %c1 iter_args(%u = %t) -> (!mem.M<0>) {
      %u1, %v = buffer.read %u, %b64[%i, %j] : !buffer.buf<4x7xi64>
      %x = arith.bitcast %v : i64 to f64
      %u2, %w = buffer.write %u1, %f64[%i, %j], %x : !buffer.buf<4x7xf64>
      scf.yield %u2 : !mem.M<0>
    }
    scf.yield %t1 : !mem.M<0>
  }
  %m4 = buffer.print %m3, %f64 : !buffer.buf<4x7xf64>
  %m5, %b32 = buffer.init %m4 dense<[[2139095039, 1040187392, -1070910669, 1343554297, 1266679808], [2139095040, 2143289344, -4194304, -2147483648, 1]]> : tensor<2x5xi32>
  %m6, %f32 = buffer.alloc %m5 : !buffer.buf<2x5xf32>
  %m7 = scf.for %i = %c0 to %c2 step %c1 iter_args(%t = %m6) -> (!mem.M<0>) {
    %t1 = scf.for %j = %c0 to %c5 step %c1 iter_args(%u = %t) -> (!mem.M<0>) {
      %u1, %v = buffer.read %u, %b32[%i, %j] : !buffer.buf<2x5xi32>
      %x = arith.bitcast %v : i32 to f32
      %u2, %w = buffer.write %u1, %f32[%i, %j], %x : !buffer.buf<2x5xf32>
      scf.yield %u2 : !mem.M<0>
    }
    scf.yield %t1 : !mem.M<0>
  }
  %m8 = buffer.print %m7, %f32 : !buffer.buf<2x5xf32>
  %m9, %b16 = buffer.init %m8 dense<[[31743, 11877, -20480, 16730], [-512, -1024, 1, 15365]]> : tensor<2x4xi16>
  %m10, %f16 = buffer.alloc %m9 : !buffer.buf<2x4xf16>
  %m11 = scf.for %i = %c0 to %c2 step %c1 iter_args(%t = %m10) -> (!mem.M<0>) {
    %t1 = scf.for %j = %c0 to %c4 step %c1 iter_args(%u = %t) -> (!mem.M<0>) {
      %u1, %v = buffer.read %u, %b16[%i, %j] : !buffer.buf<2x4xi16>
      %x = arith.bitcast %v : i16 to f16
      %u2, %w = buffer.write %u1, %f16[%i, %j], %x : !buffer.buf<2x4xf16>
      scf.yield %u2 : !mem.M<0>
    }
    scf.yield %t1 : !mem.M<0>
  }
  %m12 = buffer.print %m11, %f16 : !buffer.buf<2x4xf16>
  func.return %m12 : !mem.M<0>
}

// f64: 0.125, 0.375, 2.675, 0.005, 99.995, -0.0, -0.001 / 1e15 + 0.5, 2^53, 2^64, 2^64 + ulp,
// 1e22, 1e23 / the largest double / inf, -inf, nan, -nan, the smallest subnormal, -123.456.
// CHECK:      {{^}}0.12, 0.38, 2.67, 0.01, 100.00, -0.00, -0.00, {{$}}
// CHECK-NEXT: {{^}}1000000000000000.50, 9007199254740992.00, 18446744073709551616.00, 18446744073709555712.00, 10000000000000000000000.00, 99999999999999991611392.00, 0.00, {{$}}
// CHECK-NEXT: {{^}}179769313486231570814527423731704356798070567525844996598917476803157260780028538760589558632766878171540458953514382464234321326889464182768467546703537516986049910576551282076245490090389328944075868508455133942304583236903222948165808559332123348274797826204144723168738177180919299881250404026184124858368.00, 0.00, 0.00, 0.00, 0.00, 0.00, 0.00, {{$}}
// CHECK-NEXT: {{^}}inf, -inf, nan, -nan, 0.00, -123.46, 0.00, {{$}}
// f32: the largest f32, 0.125, -2.675, 1e10, 2^24 + 1 (rounds to 2^24) / inf, nan, -nan, -0.0,
// the smallest subnormal.
// CHECK-NEXT: {{^}}340282346638528859811704183484516925440.00, 0.12, -2.67, 10000000000.00, 16777216.00, {{$}}
// CHECK-NEXT: {{^}}inf, nan, -nan, -0.00, 0.00, {{$}}
// f16: the largest f16, 0.0999, -0.125, 2.675 (2.67578125 in f16) / -nan, -inf, the smallest
// subnormal, 1.005.
// CHECK-NEXT: {{^}}65504.00, 0.10, -0.12, 2.68, {{$}}
// CHECK-NEXT: {{^}}-nan, -inf, 0.00, 1.00, {{$}}
