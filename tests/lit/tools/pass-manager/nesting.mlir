// Pipelines nest as mlir-opt's do: a pass manager anchored on an op runs on each such op
// directly inside the op its parent runs on. xDSL's module passes nest too (they run on a
// module made around the op); `any` runs on every nested op. -p and --pass-pipeline take the
// same text; a flat list is a builtin.module pipeline.
// RUN: gpu-opt %s -p 'builtin.module(func.func(canonicalize, cse))' | filecheck %s
// RUN: gpu-opt %s --pass-pipeline='builtin.module(func.func(canonicalize,cse))' | filecheck %s
// RUN: gpu-opt %s --pass-pipeline='builtin.module(any(canonicalize, cse))' | filecheck %s
// RUN: gpu-opt %s -p 'canonicalize,cse' | filecheck %s
// RUN: gpu-opt %s -p 'builtin.module(func.func(canonicalize), func.func(cse))' --mlir-print-ir-after-all 2>&1 >/dev/null | filecheck %s --check-prefix=ORDER

// CHECK:      func.func @f(%a: i32) -> i32 {
// CHECK-NEXT:   %e = arith.addi %a, %a : i32
// CHECK-NEXT:   func.return %e : i32
// CHECK-NEXT: }
// CHECK-NEXT: func.func @g() {
// CHECK-NEXT:   func.return
// CHECK-NEXT: }

// Each nested pipeline runs on every function before the next element starts.
// ORDER:      // -----// IR Dump After Canonicalize (canonicalize) //----- //
// ORDER-NEXT: func.func @f(
// ORDER:      // -----// IR Dump After Canonicalize (canonicalize) //----- //
// ORDER-NEXT: func.func @g(
// ORDER:      // -----// IR Dump After CommonSubexpressionElimination (cse) //----- //
// ORDER-NEXT: func.func @f(
// ORDER:      // -----// IR Dump After CommonSubexpressionElimination (cse) //----- //
// ORDER-NEXT: func.func @g(

func.func @f(%a: i32) -> i32 {
  %c = arith.constant 0 : i32
  %b = arith.addi %a, %c : i32
  %d = arith.addi %a, %c : i32
  %e = arith.addi %b, %d : i32
  func.return %e : i32
}
func.func @g() {
  func.return
}
