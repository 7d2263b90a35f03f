// RUN: gpu-opt %s --verify-diagnostics | filecheck %s

// --verify-diagnostics on a chunk without expected-* annotations keeps xdsl-opt's behaviour:
// the message goes to stdout, the IR is printed with the failing op marked, and the exit status
// is 0. (With annotations it has mlir-opt's semantics: verify-diagnostics-expected.mlir.)

func.func @f(%a: i32) -> i32 {
  func.return %a, %a : i32, i32
}

// CHECK:      Expected arguments to have the same types as the function output types: expected [i32], got [i32, i32]
// CHECK:      "func.return"(%a, %a) : (i32, i32) -> ()
// CHECK-NEXT: ^^^^^^^^^^^^^
// CHECK-NEXT: | Operation does not verify: Expected arguments
