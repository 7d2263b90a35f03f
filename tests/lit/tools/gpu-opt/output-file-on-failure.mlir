// A failing run creates no output file ...
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: not gpu-opt %s -o %t.d/out.mlir
// RUN: not test -e %t.d/out.mlir

// ... and leaves no temporary file behind.
// RUN: ls -A %t.d | filecheck %s --allow-empty --check-prefix=EMPTY

// An existing output file stays untouched.
// RUN: echo "previous output" > %t.d/out.mlir
// RUN: not gpu-opt %s -o %t.d/out.mlir 2>&1 | filecheck %s --check-prefix=ERR
// RUN: filecheck %s --input-file=%t.d/out.mlir

func.func @f() -> i32 {
  %a = arith.constant 1 : i64
  func.return %a : i64
}

// EMPTY-NOT: {{.}}

// ERR: output-file-on-failure.mlir:16:3: error: Expected arguments to have the same types as the function output types: expected [i32], got [i64]

// CHECK: previous output
