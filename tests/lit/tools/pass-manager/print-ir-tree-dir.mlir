// --mlir-print-ir-tree-dir=DIR writes each dump to a file, in a folder per op from the top
// down (mlir-opt's names: <dialect>_<op>_<symbol>, no-symbol-name without one), numbered in
// the order they were written; stderr gets none.
// RUN: rm -rf %t && gpu-opt %s -p 'builtin.module(func.func(cse), canonicalize)' --mlir-print-ir-after-all --mlir-print-ir-tree-dir=%t 2>&1 >/dev/null | filecheck %s --check-prefix=NONE --allow-empty
// RUN: ls %t/builtin_module_no-symbol-name | filecheck %s --check-prefix=TOP
// RUN: ls %t/builtin_module_no-symbol-name/func_func_f | filecheck %s --check-prefix=F
// RUN: filecheck %s --check-prefix=FILE < %t/builtin_module_no-symbol-name/func_func_f/0_cse.mlir

// NONE-NOT: IR Dump

// TOP:      0_canonicalize.mlir
// TOP-NEXT: func_func_f
// TOP-NEXT: func_func_g
// F:        0_cse.mlir
// FILE:      // -----// IR Dump After CommonSubexpressionElimination (cse) //----- //
// FILE-NEXT: func.func @f() {

func.func @f() {
  func.return
}
func.func @g() {
  func.return
}
