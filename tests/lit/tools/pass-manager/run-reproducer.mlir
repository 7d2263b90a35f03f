// --run-reproducer runs the pipeline of the input's mlir_reproducer resource; a reproducer
// whose block has no pipeline, whose pipeline does not parse, an input without a block, or
// a -p beside it, is an error that says so.
// RUN: gpu-opt %S/Inputs/reproducer-no-verify.mlir --run-reproducer | filecheck %s
// RUN: not gpu-opt %S/Inputs/reproducer-without-pipeline.mlir --run-reproducer 2>&1 | filecheck %s --check-prefix=NO-PIPELINE
// RUN: not gpu-opt %S/Inputs/reproducer-without-pipeline.mlir 2>&1 | filecheck %s --check-prefix=NO-PIPELINE
// RUN: not gpu-opt %S/Inputs/reproducer-bad-pipeline.mlir --run-reproducer 2>&1 | filecheck %s --check-prefix=BAD-PIPELINE
// RUN: not gpu-opt %s --run-reproducer 2>&1 | filecheck %s --check-prefix=NO-BLOCK
// RUN: not gpu-opt %S/Inputs/reproducer-no-verify.mlir --run-reproducer -p cse 2>&1 | filecheck %s --check-prefix=TWICE
// Every tool reads external resources and sets them aside (xDSL raised NotImplementedError).
// RUN: not gpu-run %S/Inputs/reproducer-no-verify.mlir 2>&1 | filecheck %s --check-prefix=ANY-TOOL
// RUN: not gpu-run %S/Inputs/unclosed-resources.mlir 2>&1 | filecheck %s --check-prefix=UNCLOSED

// CHECK:      func.func @f(%a: i32) -> i32 {
// CHECK-NEXT:   func.return %a : i32
// CHECK-NEXT: }

// NO-PIPELINE:  reproducer-without-pipeline.mlir:5:1: error: the 'mlir_reproducer' resource has no 'pipeline: "…"' entry
// BAD-PIPELINE: gpu-opt: error: bad pass pipeline 'builtin.module(func.func(cse)': expected ')' to close 'builtin.module(' at column 1 of 'builtin.module(func.func(cse)'
// NO-BLOCK:     run-reproducer.mlir: error: --run-reproducer: the input has no {{[{]-# external_resources: [{] mlir_reproducer: [{]…[}] [}] #-[}]}} block
// TWICE:        gpu-opt: error: --run-reproducer runs the reproducer's own pipeline; drop -p / --pass-pipeline
// ANY-TOOL:     reproducer-no-verify.mlir: error: the program has no function @main to run
// UNCLOSED:     unclosed-resources.mlir:9:1: error: the external resources' '{' is never closed

func.func @f() {
  func.return
}
