// xDSL 0.75 gap (docs/xdsl-gaps.md): `scf.while : () -> ()`, a loop without iteration values as
// mlir-opt-22 prints it, does not parse in a gpuir program (xDSL reads only `scf.while () : …`).
// Upstream programs read it (ir/upstream/parallel.py; tests/lit/upstream/scf-while.mlir).
// RUN: not gpu-opt %s 2>&1 | filecheck %s
// CHECK: scf-while-no-values.mlir:8:13: error: '(' expected
func.func @f() {
  // a loop whose condition is false at once
  scf.while : () -> () {
    %f = arith.constant false
    scf.condition(%f)
  } do {
    scf.yield
  }
  func.return
}
