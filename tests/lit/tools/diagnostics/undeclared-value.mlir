// A value used but never defined is reported at its first use, naming it (mlir-opt's `use of
// undeclared SSA value name`), in gpu-opt, gpu-run and --verify-diagnostics alike; it was
// reported at the end of the file, with an empty source line (`7:1: error: values used but not
// defined`).
// RUN: not gpu-opt %s 2>&1 | filecheck %s
// RUN: not gpu-run %s --provider interp 2>&1 | filecheck %s
// RUN: not gpu-opt %s --verify-diagnostics 2>&1 | filecheck %s --check-prefix=VERIFY

func.func @main(%m: !mem.M<0>) -> (!mem.M<0>, i32) {
  %a = arith.constant 1 : i32
  %b = arith.addi %a, %c : i32
  %d = arith.addi %b, %e : i32
  func.return %m, %d : !mem.M<0>, i32
}

// CHECK:      undeclared-value.mlir:11:23: error: use of undeclared SSA value name %c (also undeclared: %e)
// CHECK-NEXT: {{^}}  %b = arith.addi %a, %c : i32
// CHECK-NEXT: {{^}}                      ^^
// CHECK-NOT:  {{.}}

// VERIFY: undeclared-value.mlir:11:23: error: unexpected error: use of undeclared SSA value name %c
