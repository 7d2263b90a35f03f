// RUN: not gpu-run %s --provider interp 3 2>&1 | filecheck %s
//
// The error of dominance.mlir from gpu-run, whose interpreter used to fail on the use with an
// internal error ("No value for key").

// CHECK-NOT: Traceback
func.func @main(%m: !mem.M<0>, %a: i32) -> (!mem.M<0>, i32) {
  %b = arith.addi %late, %a : i32
  %late = arith.muli %a, %a : i32
  func.return %m, %b : !mem.M<0>, i32
}
// CHECK: dominance-run.mlir:[[# @LINE - 4]]:3: error: operand #0 (%late) does not dominate this use
// CHECK-NOT: {{Traceback|internal error}}
