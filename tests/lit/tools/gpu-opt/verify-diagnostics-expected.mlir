// --verify-diagnostics with mlir-opt's semantics: in a chunk with annotations, every
// diagnostic must be expected and every annotation matched, each chunk on its own. This file
// passes (exit status 0); verify-diagnostics-mismatch.mlir has each way to fail.
// RUN: gpu-opt %s --verify-diagnostics --split-input-file
// RUN: gpu-opt %s --verify-diagnostics --split-input-file | filecheck %s

// CHECK-NOT: error

func.func @next_line(%a: i32) -> i32 {
  // expected-error @+1 {{Expected arguments to have the same types as the function output types}}
  func.return %a, %a : i32, i32
}

// -----

func.func @above_and_regex(%a: i32) -> i32 {
  func.return %a, %a : i32, i32
  // expected-error-re @above {{expected [{{i[0-9]+}}], got [i32, i32]}}
}

// -----

func.func @own_line(%a: i32) -> i32 {
  func.return %a, %a : i32, i32 // expected-error {{got [i32, i32]}}
}

// -----

func.func @below(%a: i32) -> i32 {
  // expected-error @below {{expected [i32], got [i32, i32]}}
  func.return %a, %a : i32, i32
}

// -----

// A chunk without diagnostics and without annotations is printed as usual.
func.func @fine() {
  func.return
}
