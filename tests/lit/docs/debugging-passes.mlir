// The session of docs/debugging-passes.md, step by step: the plugin pass crashes, the local
// reproducer holds the one function and the one pass, --run-reproducer fails the same way,
// the fix (made here with sed) passes, and the IR is printed after the pass where it changed.
// RUN: not gpu-opt %S/../../../examples/plugins/scale.mlir --load-pass-plugin=%S/../../../examples/plugins/mul_to_shift.py -p 'builtin.module(func.func(cse, mul-to-shift), canonicalize)' --mlir-pass-pipeline-crash-reproducer=%t.repro.mlir --mlir-pass-pipeline-local-reproducer 2>&1 | filecheck %s --check-prefix=CRASH
// RUN: filecheck %s --check-prefix=REPRO < %t.repro.mlir
// RUN: not gpu-opt %t.repro.mlir --load-pass-plugin=%S/../../../examples/plugins/mul_to_shift.py --run-reproducer 2>&1 | filecheck %s --check-prefix=CRASH-AGAIN
// RUN: sed 's/shift = int(math.log2(value.value.data)).*/shift = max(value.value.data.bit_length() - 1, 0)/' %S/../../../examples/plugins/mul_to_shift.py > %t_fixed.py
// RUN: gpu-opt %t.repro.mlir --load-pass-plugin=%t_fixed.py --run-reproducer | filecheck %s --check-prefix=FIXED
// RUN: gpu-opt %S/../../../examples/plugins/scale.mlir --load-pass-plugin=%t_fixed.py -p 'builtin.module(func.func(cse, mul-to-shift), canonicalize)' --mlir-print-ir-after=mul-to-shift --mlir-print-ir-after-change --mlir-pass-statistics -o /dev/null 2>&1 | filecheck %s --check-prefix=CHANGE

// CRASH:      gpu-opt: internal error in pass 'mul-to-shift': ValueError: math domain error
// CRASH-NEXT: gpu-opt: note: Pipeline failed while executing `MulToShift` on 'func.func' operation: reproducer generated at `{{.*}}.repro.mlir`

// REPRO:      builtin.module {
// REPRO-NEXT:   func.func @clear(
// REPRO:          %w = arith.muli %v, %zero : i32
// REPRO:      pipeline: "builtin.module(func.func(mul-to-shift))",

// CRASH-AGAIN: gpu-opt: internal error in pass 'mul-to-shift': ValueError: math domain error

// FIXED:      func.func @clear(
// FIXED:        %w = arith.muli %v, %zero : i32

// Only @scale changed: its dump is the only one.
// CHANGE:      // -----// IR Dump After MulToShift (mul-to-shift) //----- //
// CHANGE-NEXT: func.func @scale(
// CHANGE:        %w = arith.shli %v, %{{.*}} : i32
// CHANGE-NOT:  IR Dump
// CHANGE:      'func.func' Pipeline
// CHANGE:        MulToShift
// CHANGE-NEXT:     (S) 1 num-muls-rewritten - Number of multiplications made shifts
