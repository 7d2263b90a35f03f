// --verify-diagnostics fails, in mlir-opt's words and at the annotation or the diagnostic,
// when an expected diagnostic does not come, comes with another message, at another line or of
// another kind, and when a chunk with annotations has a diagnostic it does not expect.
// RUN: not gpu-opt %s --verify-diagnostics --split-input-file 2>&1 | filecheck %s

// CHECK: verify-diagnostics-mismatch.mlir:[[# @LINE + 3]]:6: error: expected error "never comes" was not produced

func.func @missing(%a: i32) -> i32 {
  // expected-error @+1 {{never comes}}
  func.return %a : i32
}

// -----

// CHECK: verify-diagnostics-mismatch.mlir:[[# @LINE + 5]]:3: error: unexpected error: Expected arguments to have the same types
// CHECK: verify-diagnostics-mismatch.mlir:[[# @LINE + 3]]:6: error: expected error "another message" was not produced

func.func @message(%a: i32) -> i32 {
  // expected-error @+1 {{another message}}
  func.return %a, %a : i32, i32
}

// -----

// CHECK: verify-diagnostics-mismatch.mlir:[[# @LINE + 5]]:3: error: unexpected error: Expected arguments
// CHECK: verify-diagnostics-mismatch.mlir:[[# @LINE + 3]]:6: error: expected error "Expected arguments" was not produced

func.func @line(%a: i32) -> i32 {
  // expected-error @+2 {{Expected arguments}}
  func.return %a, %a : i32, i32
}

// -----

// CHECK: verify-diagnostics-mismatch.mlir:[[# @LINE + 5]]:3: error: unexpected error: Expected arguments
// CHECK: verify-diagnostics-mismatch.mlir:[[# @LINE + 3]]:6: error: expected warning "Expected arguments" was not produced

func.func @kind(%a: i32) -> i32 {
  // expected-warning @+1 {{Expected arguments}}
  func.return %a, %a : i32, i32
}

// -----

// CHECK: verify-diagnostics-mismatch.mlir:[[# @LINE + 7]]:3: error: unexpected error: Expected arguments

func.func @expected_elsewhere() {
  // expected-error @+3 {{values used but not defined}}
  func.return
}
func.func @unexpected(%a: i32) -> i32 {
  func.return %a, %a : i32, i32
}
