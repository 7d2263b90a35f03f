// gpu-run --emit-executable links for the unchecked cpu provider only, and says so.
// RUN: not gpu-run %s --emit-executable %t --provider interp 2>&1 | filecheck %s --check-prefix=INTERP
// RUN: not gpu-run %s --emit-executable %t --provider cpu --check 2>&1 | filecheck %s --check-prefix=CHECK
// RUN: not gpu-run %s --emit-executable %s/prog --provider cpu 2>&1 | filecheck %s --check-prefix=WRITE
// INTERP: gpu-run: error: --emit-executable links for the cpu provider, not for interp
// CHECK: gpu-run: error: --emit-executable links unchecked kernels, not --check
// WRITE: gpu-run: error: cannot write '{{.*}}emit-executable-invalid.mlir/prog': {{.+}}

func.func @main(%m: !mem.M<0>) -> (!mem.M<0>, i32) {
  %c = arith.constant 7 : i32
  func.return %m, %c : !mem.M<0>, i32
}
