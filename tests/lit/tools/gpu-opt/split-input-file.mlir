// RUN: not gpu-opt %s --split-input-file 2>%t.err | filecheck %s
// RUN: filecheck %s --check-prefix=ERR --input-file=%t.err

// Line numbers count from the top of the file in every chunk, and a failing chunk does not
// stop the others.

func.func @first() {
  func.return
}

// -----

func.func @second() {
  %x = arith.constant 1 : i32
  %y = arith.addi %x, : i32
  func.return
}

// -----

func.func @third() -> i64 {
  %x = arith.constant 1 : i32
  func.return %x : i32
}

// -----

func.func @fourth() {
  func.return
}

// CHECK:      func.func @first()
// CHECK:      // -----
// CHECK-NEXT: // -----
// CHECK-NEXT: // -----
// CHECK-NEXT: builtin.module {
// CHECK-NEXT:   func.func @fourth()

// ERR:      split-input-file.mlir:15:23: error: operand expected
// ERR-NEXT: {{^}}  %y = arith.addi %x, : i32
// ERR-NEXT: {{^}}                      ^
// ERR:      split-input-file.mlir:23:3: error: Expected arguments to have the same types as the function output types: expected [i64], got [i32]
// ERR-NEXT: {{^}}  func.return %x : i32
// ERR-NOT:  Traceback
