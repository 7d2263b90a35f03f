// RUN: gpu-opt %s --verify-diagnostics -p convert-gpu-to-nvvm
// RUN: not gpu-opt %s -p convert-gpu-to-nvvm 2>&1 | filecheck %s
// RUN: not gpu-opt %s -p 'device-to-llvm{sm=42}' 2>&1 | filecheck %s --check-prefix=OPTION

// --verify-diagnostics alone passes when no error comes at all, so the second RUN checks that
// the error comes.
// CHECK: redux-invalid.mlir:12:1: error: nvptx.sm must be an architecture such as 80 : i64, found "sm_80"
// OPTION: sm must be 0 (any) or one of 50, 52, 53, 60, 61, 62, 70, 72, 75, 80, 86, 87, 89, 90, 100, 101, 103, 120, 121, found 42

// The architecture a device module is lowered for is a number (device-to-llvm{sm=80} sets it).
// expected-error@+1 {{nvptx.sm must be an architecture such as 80 : i64, found "sm_80"}}
builtin.module attributes {gpu.device, nvptx.sm = "sm_80"} {
  func.func @f(%a: i32) -> i32 {
    func.return %a : i32
  }
}
