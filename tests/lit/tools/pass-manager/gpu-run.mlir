// gpu-run takes the pass manager's flags too: IR printing, timing (with the tool's own
// phases), statistics, and crash reproducers, which `gpu-opt --run-reproducer` reruns. A pass
// that fails is named, and one whose result does not verify gets gpu-opt's note.
// RUN: gpu-run %s 41 --provider interp --mlir-print-ir-after=remove-double-syncs 2>&1 | filecheck %s --check-prefix=PRINT
// RUN: gpu-run %s 41 --provider interp --mlir-timing 2>&1 | filecheck %s --check-prefix=TIME
// RUN: gpu-run %s 41 --provider interp --mlir-pass-statistics 2>&1 | filecheck %s --check-prefix=STATS
// RUN: not gpu-run %s 41 --provider interp --load-pass-plugin=%S/Inputs/faulty_passes.py -p 'gpu-pipeline{host-pipeline="crash-on"}' --mlir-pass-pipeline-crash-reproducer=%t.mlir --mlir-pass-pipeline-local-reproducer 2>&1 | filecheck %s --check-prefix=CRASH
// RUN: not gpu-opt %t.mlir --load-pass-plugin=%S/Inputs/faulty_passes.py --run-reproducer 2>&1 | filecheck %s --check-prefix=AGAIN
// RUN: not gpu-run %s 41 --provider interp --load-pass-plugin=%S/Inputs/faulty_passes.py -p 'gpu-pipeline,break-terminator' --mlir-verify-each 2>&1 | filecheck %s --check-prefix=BROKEN
// Without --mlir-verify-each (or a flag that implies it) gpu-run verifies once, at the end.
// RUN: not gpu-run %s 41 --provider interp --load-pass-plugin=%S/Inputs/faulty_passes.py -p 'gpu-pipeline,break-terminator' 2>&1 | filecheck %s --check-prefix=AT-END
// The provider's own lowering is instrumented too (inside Execution).
// RUN: gpu-run %S/../../../../examples/array.mlir --provider cpu --mlir-print-ir-after=convert-func-to-llvm 2>&1 | filecheck %s --check-prefix=LOWERING

// PRINT:      // -----// IR Dump After RemoveDoubleSyncs (remove-double-syncs) //----- //
// PRINT-NEXT: builtin.module @device attributes {gpu.device} {
// PRINT:      {{^}}42{{$}}

// TIME:      {{^}}42{{$}}
// TIME:      ... Execution time report ...
// TIME:      {{^ *[0-9.]+}} ({{ *[0-9.]+}}%){{ *[0-9.]+}} ({{ *[0-9.]+}}%)  Parser
// TIME-NEXT: {{^ *[0-9.]+}} ({{ *[0-9.]+}}%){{ *[0-9.]+}} ({{ *[0-9.]+}}%)  GpuPipeline
// TIME:      {{^ *[0-9.]+}} ({{ *[0-9.]+}}%){{ *[0-9.]+}} ({{ *[0-9.]+}}%)  Execution
// TIME-NEXT: {{^ *[0-9.]+}} ({{ *[0-9.]+}}%){{ *[0-9.]+}} ({{ *[0-9.]+}}%)  Rest
// TIME-NEXT: {{^ *[0-9.]+}} (100.0%){{ *[0-9.]+}} (100.0%)  Total

// STATS:      {{^}}42{{$}}
// STATS:      ... Pass statistics report ...
// STATS:      SplitApply
// STATS:        (S) 1 num-modules-split       - Number of modules split into @host and @device

// CRASH:      gpu-run: internal error in pass 'crash-on': RuntimeError: the pass has a bug
// CRASH-NEXT: gpu-run: note: Pipeline failed while executing `CrashOn` on 'builtin.module' operation: reproducer generated at `{{.*}}.mlir`
// CRASH-NEXT: gpu-run: note: set GPUIR_DEBUG=1 to see the Python traceback
// AGAIN:      gpu-opt: internal error in pass 'crash-on': RuntimeError: the pass has a bug

// BROKEN:      gpu-run.mlir:{{[0-9]+}}:1: error: Operation func.func contains empty block in single-block region that expects at least a terminator
// BROKEN:      note: the IR that pass 'break-terminator' produced does not verify
// AT-END:      gpu-run.mlir:{{[0-9]+}}:1: error: Operation func.func contains empty block in single-block region that expects at least a terminator
// AT-END:      note: the IR that the pipeline produced does not verify (--mlir-verify-each names the pass)

// LOWERING:      // -----// IR Dump After ConvertFuncToLlvm (convert-func-to-llvm) //----- //
// LOWERING-NEXT: builtin.module @host attributes {gpu.host_lowering} {
// LOWERING:      // -----// IR Dump After ConvertFuncToLlvm (convert-func-to-llvm) //----- //
// LOWERING-NEXT: builtin.module @device attributes {gpu.device} {
// LOWERING:      {{^}}60{{$}}

func.func @main(%m: !mem.M<0>, %x: i32) -> (!mem.M<0>, i32) {
  %c = arith.constant 1 : i32
  %y = arith.addi %x, %c : i32
  func.return %m, %y : !mem.M<0>, i32
}

func.func @crash() {
  func.return
}

func.func @broken() {
  func.return
}
