// An attribute whose verifier fails while the file is parsed is a parse error at that
// attribute, not an internal error (a bug found by the dialect tests).
// RUN: not gpu-opt %s --allow-unregistered-dialect 2>&1 | filecheck %s
// RUN: gpu-opt %s --allow-unregistered-dialect --parsing-diagnostics | filecheck %s --check-prefix=DIAG

"test.op"() {a = #llvm.linkage<"bogus">} : () -> ()

// CHECK: attribute-verifier.mlir:6:40: error: Specified linkage 'bogus' is unknown
// CHECK-NEXT: "test.op"() {a = #llvm.linkage<"bogus">} : () -> ()
// CHECK-NEXT: {{^ +\^$}}
// CHECK-NOT: internal error

// DIAG: Specified linkage 'bogus' is unknown
