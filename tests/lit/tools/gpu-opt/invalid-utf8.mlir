// RUN: printf 'func.func @f() {\n  "test.op"() {s = "\377"} : () -> ()\n}\n' > %t.mlir
// RUN: not gpu-opt %t.mlir 2>&1 | filecheck %s

// CHECK:     invalid-utf8.mlir.tmp.mlir:2:21: error: invalid UTF-8: byte 0xff (invalid start byte)
// CHECK-NOT: Traceback
