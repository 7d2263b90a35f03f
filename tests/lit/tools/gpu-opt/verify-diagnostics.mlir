// RUN: not gpu-opt %s --verify-diagnostics 2>&1 | filecheck %s

// --verify-diagnostics has mlir-opt's semantics on every chunk: one without expected-*
// annotations expects no diagnostic, so an error there fails the run, at the op, in mlir-opt's
// words. (With annotations: verify-diagnostics-expected.mlir.)

func.func @f(%a: i32) -> i32 {
  func.return %a, %a : i32, i32
}

// CHECK: verify-diagnostics.mlir:8:3: error: unexpected error: Expected arguments to have the same types as the function output types: expected [i32], got [i32, i32]
