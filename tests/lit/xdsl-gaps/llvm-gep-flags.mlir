// xDSL 0.75 gap (docs/xdsl-gaps.md): `llvm.getelementptr inbounds|nuw`, the flags MLIR 22's
// lowerings write on most GEPs, does not parse (`inbounds` alone does).
// RUN: not gpu-opt %s 2>&1 | filecheck %s
// CHECK: llvm-gep-flags.mlir:7:35: error: operand expected
llvm.func @f(%p: !llvm.ptr<1>, %i: i64) -> !llvm.ptr<1> {
  // inbounds and no unsigned wrap
  %q = llvm.getelementptr inbounds|nuw %p[%i] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i32
  llvm.return %q : !llvm.ptr<1>
}
