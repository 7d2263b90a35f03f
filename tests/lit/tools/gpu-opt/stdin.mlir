// `-` (or no file) reads the input from stdin, named <stdin> in diagnostics, in gpu-opt and in
// gpu-run; gpu-opt's output of the whole pipeline runs under gpu-run.
// RUN: cat %s | gpu-opt - | filecheck %s --check-prefix=OPT
// RUN: cat %s | gpu-opt | filecheck %s --check-prefix=OPT
// RUN: cat %s | gpu-run - --provider cpu | filecheck %s --check-prefix=OUT
// RUN: cat %s | gpu-run - --provider interp | filecheck %s --check-prefix=OUT
// RUN: echo 'func.func @f() { func.return %z }' | not gpu-opt - 2>&1 | filecheck %s --check-prefix=ERR
// RUN: echo 'func.func @main(%m: !mem.M<0>) -> !mem.M<0> { func.return %z : !mem.M<0> }' | not gpu-run - 2>&1 | filecheck %s --check-prefix=RUNERR

// OPT: func.func @main(%m: !mem.M<0>) -> (!mem.M<0>, i32)
// OUT: 7
// ERR: <stdin>:1:33: error: Expected ':'
// RUNERR: <stdin>:1:59: error: use of undeclared SSA value name %z

func.func @main(%m: !mem.M<0>) -> (!mem.M<0>, i32) {
  %n = arith.constant 7 : i32
  func.return %m, %n : !mem.M<0>, i32
}
