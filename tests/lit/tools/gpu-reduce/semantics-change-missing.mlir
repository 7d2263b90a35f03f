// Where gpu-opt has no --check-semantics, --semantics-change is a one-line error.
// UNSUPPORTED: check-semantics
// RUN: not gpu-reduce %s --semantics-change gpu-pipeline -o %t.mlir 2>&1 | filecheck %s
// CHECK: gpu-reduce: error: --semantics-change needs 'gpu-opt --check-semantics'

func.func @main(%m: !mem.M<0>) -> (!mem.M<0>, i32) {
  %x = arith.constant 1 : i32
  func.return %m, %x : !mem.M<0>, i32
}
