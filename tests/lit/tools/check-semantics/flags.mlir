// --check-semantics=PASS checks only after the named passes; the crash reproducer holds the IR
// before the pass that changed the program; where interp cannot run a stage the report says
// where checking started or stopped; --check-tolerance lets floats move by ULPs; bad values
// are errors.
// RUN: not gpu-opt %S/Inputs/subtract.mlir --load-pass-plugin=%S/Inputs/miscompiles.py -p 'swap-sub-operands,cse,canonicalize' --check-semantics=canonicalize --check-args 10 2>&1 | filecheck %s --check-prefix=ONLY-OTHER
// RUN: gpu-opt %S/Inputs/subtract.mlir --load-pass-plugin=%S/Inputs/miscompiles.py -p 'cse,canonicalize,swap-sub-operands' --check-semantics=canonicalize --check-args 10 -o /dev/null 2>&1 | filecheck %s --allow-empty --check-prefix=NOT-CHECKED
// RUN: not gpu-opt %S/Inputs/subtract.mlir --load-pass-plugin=%S/Inputs/miscompiles.py -p 'canonicalize,swap-sub-operands' --check-semantics=swap-sub-operands --check-args 10 --mlir-pass-pipeline-crash-reproducer=%t.mlir --mlir-pass-pipeline-local-reproducer 2>&1 | filecheck %s --check-prefix=REPRO
// RUN: filecheck %s --check-prefix=REPRO-FILE < %t.mlir
// RUN: gpu-opt %S/../../../../examples/map_chain.mlir -p gpu-pipeline --check-semantics -o /dev/null 2>&1 | filecheck %s --check-prefix=STARTED
// RUN: gpu-opt %S/../../../../examples/array.mlir -p 'gpu-pipeline,device-to-llvm' --check-semantics -o /dev/null 2>&1 | filecheck %s --check-prefix=STOPPED
// RUN: not gpu-opt %S/Inputs/halve.mlir --load-pass-plugin=%S/Inputs/miscompiles.py -p 'reassociate-halves' --check-semantics --check-args 7.1 2>&1 | filecheck %s --check-prefix=ULPS
// RUN: gpu-opt %S/Inputs/halve.mlir --load-pass-plugin=%S/Inputs/miscompiles.py -p 'reassociate-halves' --check-semantics --check-args 7.1 --check-tolerance=1 -o /dev/null 2>&1 | filecheck %s --allow-empty --check-prefix=TOLERATED
// RUN: not gpu-opt %S/Inputs/subtract.mlir -p cse --check-semantics 2>&1 | filecheck %s --check-prefix=NO-ARGS
// RUN: not gpu-opt %S/Inputs/subtract.mlir -p cse --check-semantics --check-args x 2>&1 | filecheck %s --check-prefix=BAD-ARG
// RUN: not gpu-opt %S/Inputs/subtract.mlir -p cse --check-semantics=csee --check-args 1 2>&1 | filecheck %s --check-prefix=BAD-PASS
// RUN: not gpu-opt %S/Inputs/subtract.mlir -p cse --check-semantics --check-args 1 --check-tolerance=-1 2>&1 | filecheck %s --check-prefix=BAD-ULPS

// Only canonicalize is checked: it is blamed, with the passes that ran unchecked before it.
// ONLY-OTHER: subtract.mlir: error: --check-semantics: pass 'canonicalize' changed what @main computes: result 1 is -9 after it, 9 before (compared with the input; unchecked since then: swap-sub-operands, cse)
// NOT-CHECKED-NOT: error

// REPRO:      error: --check-semantics: pass 'swap-sub-operands' changed what @main computes: result 1 is -9 after it, 9 before (compared with the input; unchecked since then: canonicalize)
// REPRO-NEXT: note: Pipeline failed while executing `SwapSubOperands` on 'builtin.module' operation: reproducer generated at `{{.*}}.mlir`
// REPRO-FILE: %r = arith.subi %x, %one : i32
// REPRO-FILE: pipeline: "builtin.module(swap-sub-operands)",

// STARTED: gpu-opt: note: --check-semantics started after pass 'lower-btensor-map-reduce': interp cannot run the input
// STOPPED: gpu-opt: note: --check-semantics stopped after pass 'convert-gpu-to-nvvm': interp does not run IR lowered for LLVM ('llvm.call_intrinsic')

// ULPS:      halve.mlir: error: --check-semantics: pass 'reassociate-halves' changed what @main computes: result 1 is 7.9 after it, 7.8999996 before (compared with the input)
// TOLERATED-NOT: error

// NO-ARGS:  subtract.mlir: error: --check-semantics: --check-args: @main takes 1 argument(s) (i32), got 0
// BAD-ARG:  subtract.mlir: error: --check-semantics: --check-args: argument 1 of @main: 'x' is not an integer (expected i32)
// BAD-PASS: gpu-opt: error: --check-semantics names the unknown pass 'csee' (did you mean 'cse'?)
// BAD-ULPS: gpu-opt: error: --check-tolerance takes a number of ULPs, 0 or more, not -1
