// gpu-run --emit-executable writes a native executable (docs/native.md) that runs the program
// without Python: the same results and output, and gpu-run's diagnostics.
// RUN: gpu-run %s --provider cpu --emit-executable %t
// RUN: %t 5 | filecheck %s
// RUN: not %t x 2>&1 | filecheck %s --check-prefix=ARG
// RUN: not %t 5 6 2>&1 | filecheck %s --check-prefix=COUNT

// CHECK:      n = 5
// CHECK-NEXT: 35
// CHECK-EMPTY:
// ARG:        emit-executable.mlir:14:1: error: argument 1 of @main: 'x' is not an integer (expected i32)
// ARG-NEXT:   func.func @main
// COUNT:      emit-executable.mlir:14:1: error: @main takes 1 argument(s) (i32), got 2
func.func @main(%m: !mem.M<0>, %n: i32) -> (!mem.M<0>, i32) {
  printf.print_format "n = {}\n", %n : i32
  %c = arith.constant 7 : i32
  %r = arith.muli %n, %c : i32
  func.return %m, %r : !mem.M<0>, i32
}
