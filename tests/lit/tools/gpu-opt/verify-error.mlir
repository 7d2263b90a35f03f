// RUN: not gpu-opt %s 2>&1 | filecheck %s

// A verifier error is anchored at the op that fails: its place in the file, the source
// line, and the op as the verifier saw it.

func.func @f(%a: i32) -> i32 {
  %b = arith.addi %a, %a : i32
  func.return %b, %b : i32, i32
}

// CHECK:      verify-error.mlir:8:3: error: Expected arguments to have the same types as the function output types: expected [i32], got [i32, i32]
// CHECK-NEXT: {{^}}  func.return %b, %b : i32, i32
// CHECK-NEXT: {{^}}  ^
// CHECK-NEXT: note: see current operation: "func.return"(%b, %b) : (i32, i32) -> ()
// CHECK-NOT:  Traceback
