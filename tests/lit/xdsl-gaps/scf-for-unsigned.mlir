// xDSL 0.75 gap (docs/xdsl-gaps.md): `scf.for unsigned` (MLIR's unsigned comparison of the
// bounds) does not parse. mlir-opt-22 reads and prints it as written. This test fails when xDSL
// learns it: then gpuir should run it (unsigned bounds in interp and the cpu lowering).
// RUN: not gpu-opt %s 2>&1 | filecheck %s
// CHECK: scf-for-unsigned.mlir:8:11: error: Expected block argument!
func.func @f(%lb: i32, %ub: i32, %s: i32) {
  // the loop of an unsigned i32 induction variable
  scf.for unsigned %i = %lb to %ub step %s : i32 {
  }
  func.return
}
