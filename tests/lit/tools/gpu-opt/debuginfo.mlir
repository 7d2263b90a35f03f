// RUN: gpu-opt %s --print-debuginfo | filecheck %s
// RUN: gpu-opt %s --split-input-file -p cse --print-debuginfo | filecheck %s --check-prefix=SPLIT

// Parsed ops carry the location of their first token, counted from the top of the file in
// every chunk; an explicit loc(...) is kept.

func.func @f(%a: i32) -> i32 {
  %b = arith.addi %a, %a : i32
  func.return %b : i32 loc("kernel.py":42:7)
}

// -----

func.func @g() {
  func.return
}

// CHECK:      func.func @f(%a: i32 loc(unknown)) -> i32 {
// CHECK-NEXT:   %b = arith.addi %a, %a : i32 loc("{{.*}}debuginfo.mlir":8:3)
// CHECK-NEXT:   func.return %b : i32 loc("kernel.py":42:7)
// CHECK-NEXT: } loc("{{.*}}debuginfo.mlir":7:1)

// SPLIT:      func.func @g() {
// SPLIT-NEXT:   func.return loc("{{.*}}debuginfo.mlir":15:3)
// SPLIT-NEXT: } loc("{{.*}}debuginfo.mlir":14:1)
