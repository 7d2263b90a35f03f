// An empty block where a terminator is expected: xDSL's message names only the kind of op
// (it comes from the regions' check, not the op's own verifier); the diagnostic points at it.
// RUN: not gpu-opt %s 2>&1 | filecheck %s
// RUN: not gpu-run %s --provider interp 2>&1 | filecheck %s

func.func @fine() {
  func.return
}
// CHECK:      empty-block.mlir:[[# @LINE + 3]]:1: error: Operation func.func contains empty block in single-block region that expects at least a terminator
// CHECK-NEXT: func.func @empty() {
// CHECK-NEXT: ^
func.func @empty() {
^bb0:
}
