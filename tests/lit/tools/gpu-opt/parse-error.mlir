// RUN: not gpu-opt %s 2>&1 | filecheck %s

// A parse error is one diagnostic at file:line:col, with the source line and a caret
// under the offending token; no Python traceback.

func.func @f(%a: i32) -> i32 {
  %b = arith.addi %a, %a : i32
  %c = arith.bogus %b : i32
  func.return %c : i32
}

// CHECK:      parse-error.mlir:8:20: error: Operation arith.bogus is not registered
// CHECK-NEXT: {{^}}  %c = arith.bogus %b : i32
// CHECK-NEXT: {{^}}                   ^^
// CHECK-NOT:  Traceback
