# RUN: python %s | filecheck %s
#
# gpuir.compile verifies SSA dominance too (see dominance.mlir): a program that uses a value
# before its definition is a CompileError at the use, not an internal error of the interpreter
# when the kernel runs.

import gpuir

SOURCE = """\
func.func @main(%m: !mem.M<0>, %a: i32) -> (!mem.M<0>, i32) {
  %b = arith.addi %late, %a : i32
  %late = arith.muli %a, %a : i32
  func.return %m, %b : !mem.M<0>, i32
}
"""

try:
    gpuir.compile(SOURCE, "interp")
except gpuir.CompileError as e:
    print(e)

# CHECK: error: operand #0 (%late) does not dominate this use
# CHECK-NEXT:   %b = arith.addi %late, %a : i32
