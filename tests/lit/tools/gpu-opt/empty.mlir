// RUN: gpu-opt %s | filecheck %s
// RUN: printf "" | gpu-opt | filecheck %s

// An input without operations (only comments, or nothing) is an empty module, as in
// mlir-opt; xdsl-opt rejects it.

// CHECK:      builtin.module {
// CHECK-NEXT: }
