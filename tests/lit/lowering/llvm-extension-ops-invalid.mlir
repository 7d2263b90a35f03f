// RUN: gpu-opt %s --verify-diagnostics

// llvm.mlir.poison makes a value of its type out of nothing: it takes no operand.
llvm.func @f(%x: i32) {
  // expected-error @below {{Expected 0 operands, but got 1}}
  %p = "llvm.mlir.poison"(%x) : (i32) -> i32
  llvm.return
}
