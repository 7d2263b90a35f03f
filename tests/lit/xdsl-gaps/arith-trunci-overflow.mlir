// xDSL 0.75 gap (docs/xdsl-gaps.md): `arith.trunci` with overflow flags does not parse.
// RUN: not gpu-opt %s 2>&1 | filecheck %s
// CHECK: arith-trunci-overflow.mlir:6:24: error: Expected ':'
func.func @f(%x: i32) -> i16 {
  // nsw: the value fits in i16 as a signed number
  %y = arith.trunci %x overflow<nsw> : i32 to i16
  func.return %y : i16
}
