// A file without an extension, or with one that names no frontend, is read as MLIR.
// RUN: cp %s %t
// RUN: gpu-opt %t | filecheck %s
// RUN: cp %s %t.txt
// RUN: gpu-opt %t.txt | filecheck %s
// RUN: gpu-opt < %s | filecheck %s

func.func @f(%a: i32) -> i32 {
  func.return %a : i32
}

// CHECK:      func.func @f(%a: i32) -> i32 {
// CHECK-NEXT:   func.return %a : i32
// CHECK-NEXT: }
