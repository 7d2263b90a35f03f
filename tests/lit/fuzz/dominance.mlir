// RUN: not gpu-opt %s --split-input-file 2>&1 | filecheck %s
//
// Found by the fuzzer (tests/fuzz): xDSL's verifier does not check SSA dominance, so a value
// used before its definition verified, and the passes, `-t llvm` (KeyError) and gpu-run's
// interpreter ("No value for key") failed on it with internal errors. gpu-opt and gpu-run now
// reject it at the use, as MLIR does (gpuir/dominance.py); dominance-valid.mlir has what stays
// accepted, dominance-run.mlir the same error from gpu-run.

// CHECK-NOT: Traceback

// Used before its definition in the same block.
func.func @f(%a: i32) -> i32 {
  %b = arith.addi %late, %a : i32
  %late = arith.muli %a, %a : i32
  func.return %b : i32
}
// CHECK: dominance.mlir:[[# @LINE - 4]]:3: error: operand #0 (%late) does not dominate this use

// -----

// Defined in a block that does not dominate the use.
func.func @f(%a: i32, %p: i1) -> i32 {
  cf.cond_br %p, ^x, ^y
^x:
  %c = arith.addi %a, %a : i32
  cf.br ^y
^y:
  func.return %c : i32
}
// CHECK: dominance.mlir:[[# @LINE - 2]]:3: error: operand #0 (%c) does not dominate this use

// -----

// An op's result used in the op's own region.
func.func @f(%a: index) -> index {
  %r = scf.for %i = %a to %a step %a iter_args(%x = %a) -> (index) {
    %y = arith.addi %x, %r : index
    scf.yield %y : index
  }
  func.return %r : index
}
// CHECK: dominance.mlir:[[# @LINE - 5]]:5: error: operand #1 (%r) does not dominate this use

// CHECK-NOT: {{Traceback|internal error}}

// CHECK-NOT: {{Traceback|internal error}}
