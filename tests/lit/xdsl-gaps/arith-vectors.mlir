// xDSL 0.75 gaps (docs/xdsl-gaps.md): arith compares and casts on vectors. `arith.cmpi` on
// vector<4xi32> gives i1 instead of vector<4xi1>, and `arith.sitofp` rejects vector operands.
// RUN: not gpu-opt %s --split-input-file 2>&1 | filecheck %s
// CHECK: arith-vectors.mlir:7:15: error: operand is used with type vector<4xi1>, but has been previously used or defined with type i1
func.func @cmp(%x: vector<4xi32>, %y: vector<4xi32>) -> vector<4xi1> {
  %c = arith.cmpi slt, %x, %y : vector<4xi32>
  func.return %c : vector<4xi1>
}

// -----

// CHECK: arith-vectors.mlir:15:3: error: vector<4xi32> should be of base attribute integer_type
func.func @cast(%x: vector<4xi32>) -> vector<4xf32> {
  %c = arith.sitofp %x : vector<4xi32> to vector<4xf32>
  func.return %c : vector<4xf32>
}
