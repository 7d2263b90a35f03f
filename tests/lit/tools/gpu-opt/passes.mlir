// RUN: gpu-opt %s -p canonicalize | filecheck %s
// RUN: gpu-opt %s -p canonicalize,cse --print-between-passes 2>&1 >/dev/null | filecheck %s --check-prefix=BETWEEN
// RUN: gpu-opt %s -p canonicalize --time-passes 2>&1 >/dev/null | filecheck %s --check-prefix=TIME

// xDSL's passes are available under their xdsl-opt names.

func.func @f(%a: index) -> index {
  %c0 = arith.constant 0 : index
  %b = arith.addi %a, %c0 : index
  func.return %b : index
}

// CHECK:      func.func @f(%a: index) -> index {
// CHECK-NEXT:   func.return %a : index
// CHECK-NEXT: }

// xdsl-opt's --print-between-passes is --mlir-print-ir-after-all: to stderr, MLIR's header.
// BETWEEN:      // -----// IR Dump After Canonicalize (canonicalize) //----- //
// BETWEEN:      func.return %a : index
// BETWEEN:      // -----// IR Dump After CommonSubexpressionElimination (cse) //----- //

// TIME: {{ *[0-9.]+}} ({{ *[0-9.]+}}%){{ *[0-9.]+}} ({{ *[0-9.]+}}%)  Canonicalize
