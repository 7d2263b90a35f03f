// Malformed scf.while in upstream programs: each error is at the token it names.
// RUN: not gpu-opt %s --upstream --split-input-file 2>&1 | filecheck %s

// An assignment that the type does not take.
// CHECK:      scf-while-invalid.mlir:[[# @LINE + 5]]:25: error: 'scf.while' assigns 1 iteration value(s), but its type takes 0
// CHECK-NEXT: {{^  scf.while \(%a = %x\) : \(\) -> \(\) {}}
// CHECK-NEXT: {{^                        \^+$}}
func.func @main() {
  %x = arith.constant 1 : i32
  scf.while (%a = %x) : () -> () {
    %f = arith.constant false
    scf.condition(%f)
  } do {
    scf.yield
  }
  return
}

// -----

// No assignments, but a type that takes a value.
// CHECK:      scf-while-invalid.mlir:[[# @LINE + 3]]:15: error: 'scf.while' assigns 0 iteration value(s), but its type takes 1
func.func @main() {
  %x = arith.constant 1 : i32
  scf.while : (i32) -> () {
    %f = arith.constant false
    scf.condition(%f)
  } do {
    scf.yield
  }
  return
}

// -----

// The after region without its keyword.
// CHECK:      scf-while-invalid.mlir:[[# @LINE + 5]]:5: error: Expected 'do'
func.func @main() {
  scf.while : () -> () {
    %f = arith.constant false
    scf.condition(%f)
  } {
    scf.yield
  }
  return
}
