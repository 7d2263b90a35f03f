// The output file is written when the run succeeds ...
// RUN: rm -f %t.mlir
// RUN: gpu-opt %s -o %t.mlir
// RUN: filecheck %s --input-file=%t.mlir

// ... and re-written, whole, by a later successful run.
// RUN: gpu-opt %s -p canonicalize -o %t.mlir
// RUN: filecheck %s --input-file=%t.mlir --check-prefix=CANON

func.func @f() -> i32 {
  %a = arith.constant 1 : i32
  %b = arith.constant 2 : i32
  %c = arith.addi %a, %b : i32
  func.return %c : i32
}

// CHECK:      builtin.module {
// CHECK-NEXT:   func.func @f() -> i32 {
// CHECK-NEXT:     %a = arith.constant 1 : i32
// CHECK-NEXT:     %b = arith.constant 2 : i32
// CHECK-NEXT:     %c = arith.addi %a, %b : i32
// CHECK-NEXT:     func.return %c : i32
// CHECK-NEXT:   }
// CHECK-NEXT: }

// CANON:      func.func @f() -> i32 {
// CANON-NEXT:   %c = arith.constant 3 : i32
// CANON-NEXT:   func.return %c : i32
// CANON-NEXT: }
