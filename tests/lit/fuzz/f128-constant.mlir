// An f128 constant: xDSL can neither print nor pack it, so gpu-opt failed with a bare
// "not supported" (printing the result, or a diagnostic that shows the module) and -t ptx
// the same. Now the input check rejects it at the op.
// RUN: not gpu-opt %s 2>&1 | filecheck %s
// RUN: not gpu-opt %s -t ptx 2>&1 | filecheck %s
// RUN: not gpu-run %s --provider interp 2>&1 | filecheck %s

// CHECK:      f128-constant.mlir:[[# @LINE + 3]]:3: error: 'arith.constant' has a float attribute of type f128: gpuir supports float attributes of f16, bf16, f32 and f64 only
// CHECK-NEXT:   %c = arith.constant 1.0 : f128
func.func @main(%m: !mem.M<0>) -> (!mem.M<0>, f32) {
  %c = arith.constant 1.0 : f128
  %t = arith.truncf %c : f128 to f32
  func.return %m, %t : !mem.M<0>, f32
}
