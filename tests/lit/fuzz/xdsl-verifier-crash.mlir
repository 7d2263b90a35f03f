// Found by the fuzzer: xDSL's verifier of `llvm.sext` asserts that the result is an integer
// instead of saying so, and gpu-opt reported an internal error. Now any crash inside one op's
// verifier is an error at that op.
// RUN: not gpu-opt %s 2>&1 | filecheck %s
// RUN: not gpu-run %s 2>&1 | filecheck %s
// CHECK: xdsl-verifier-crash.mlir:[[#LINE:]]:3: error: 'llvm.sext' does not verify (xDSL's verifier failed on it: AssertionError)
// CHECK-NOT: internal error
llvm.func @f(%x: i32) -> f64 {
  %y = llvm.sext %x : i32 to f64
  llvm.return %y : f64
}
