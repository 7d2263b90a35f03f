// xDSL 0.75 gap (docs/xdsl-gaps.md): the argument attributes of a function declaration are
// dropped when it is parsed (the generic form has no `arg_attrs`), so they are missing from
// what is printed; mlir-opt-22 prints `func.func private @g(i32 {llvm.noundef})`. A
// definition keeps them. This test fails when xDSL keeps them.
// RUN: gpu-opt %s | filecheck %s
// RUN: gpu-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC
// CHECK:      func.func private @g(i32) -> ()
// CHECK:      func.func @h(%x: i32 {llvm.noundef}) {
// GENERIC:     "func.func"() <{sym_name = "g", function_type = (i32) -> (), sym_visibility = "private"}>
// GENERIC-NOT: arg_attrs = [{llvm.noundef}]}>
// GENERIC:     arg_attrs = [{llvm.noundef}]
func.func private @g(i32 {llvm.noundef})
func.func @h(%x: i32 {llvm.noundef}) {
  func.return
}
