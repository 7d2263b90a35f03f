// A symbol defined twice: the diagnostic points at the second definition, not at the module.
// RUN: not gpu-opt %s 2>&1 | filecheck %s
// RUN: not gpu-run %s --provider interp 2>&1 | filecheck %s

// CHECK:      redefinition.mlir:[[# @LINE + 6]]:1: error: Redefinition of symbol "twice"
// CHECK-NEXT: func.func @twice() {
// CHECK-NEXT: ^
func.func @twice() {
  func.return
}
func.func @twice() {
  func.return
}
