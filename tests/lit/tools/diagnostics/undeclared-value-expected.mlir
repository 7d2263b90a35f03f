// The diagnostic of an undefined value is at its use, so --verify-diagnostics can expect it
// there; a value used before its definition in a later block is not undefined.
// RUN: gpu-opt %s --verify-diagnostics --split-input-file

func.func @f(%a: i32) -> i32 {
  // expected-error @below {{use of undeclared SSA value name %nope}}
  %b = arith.addi %a, %nope : i32
  func.return %b : i32
}

// -----

func.func @later_block(%a: i32) -> i32 {
  cf.br ^bb2
^bb1:
  func.return %b : i32
^bb2:
  %b = arith.addi %a, %a : i32
  cf.br ^bb1
}

// -----

func.func @in_a_region(%lb: index, %ub: index, %s: index) {
  scf.for %i = %lb to %ub step %s {
    // expected-error @below {{use of undeclared SSA value name %j}}
    %k = arith.addi %i, %j : index
    scf.yield
  }
  func.return
}
