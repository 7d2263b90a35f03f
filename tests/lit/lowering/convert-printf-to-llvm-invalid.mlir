// RUN: gpu-opt %s -p convert-printf-to-llvm --verify-diagnostics

// Integers print through 64 bits.
func.func @main(%m: !mem.M<0>, %a: i128) -> !mem.M<0> {
  // expected-error @below {{'printf.print_format' cannot print a value of type i128 in compiled code}}
  printf.print_format "{}\n", %a : i128
  func.return %m : !mem.M<0>
}
