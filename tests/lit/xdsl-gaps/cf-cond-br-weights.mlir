// xDSL 0.75 gap (docs/xdsl-gaps.md): `cf.cond_br %c weights([3, 5]), ...`, the custom syntax
// mlir-opt-22 prints for branch weights, does not parse (the attribute-dictionary form
// `{branch_weights = array<i32: 3, 5>}` does).
// RUN: not gpu-opt %s 2>&1 | filecheck %s
// CHECK: cf-cond-br-weights.mlir:8:17: error: Expected ','
func.func @f(%c: i1) {
  // taken 3 times in 8
  cf.cond_br %c weights([3, 5]), ^a, ^b
^a:
  func.return
^b:
  func.return
}
