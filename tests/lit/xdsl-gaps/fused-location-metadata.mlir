// xDSL 0.75 gap (docs/xdsl-gaps.md): a fused location with metadata, `loc(fused<"pass">[...])`,
// does not parse (a fused location without metadata does).
// RUN: not gpu-opt %s 2>&1 | filecheck %s
// CHECK: fused-location-metadata.mlir:6:24: error: '[' expected
func.func @f() {
  func.return loc(fused<"pass">["a.mlir":1:2, "b.mlir":3:4])
}
