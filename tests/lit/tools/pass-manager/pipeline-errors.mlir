// A pipeline that does not parse, nests on a name that is no op, anchors the top on another
// op, or puts an op pass under the wrong op is an error that says where; so is a flag that
// names an unknown pass.
// RUN: not gpu-opt %s -p 'builtin.module(fnuc.func(cse))' 2>&1 | filecheck %s --check-prefix=ANCHOR
// RUN: not gpu-opt %s -p 'builtin.module(cse(dce))' 2>&1 | filecheck %s --check-prefix=PASS-ANCHOR
// RUN: not gpu-opt %s -p 'func.func(cse)' 2>&1 | filecheck %s --check-prefix=TOP
// RUN: not gpu-opt %s -p 'builtin.module(func.func(cse)' 2>&1 | filecheck %s --check-prefix=OPEN
// RUN: not gpu-opt %s -p 'builtin.module(func.func(cse)))' 2>&1 | filecheck %s --check-prefix=CLOSE
// RUN: not gpu-opt %s -p 'builtin.module(,cse)' 2>&1 | filecheck %s --check-prefix=EMPTY
// RUN: not gpu-opt %s -p 'builtin.module(func.func(csee))' 2>&1 | filecheck %s --check-prefix=UNKNOWN
// RUN: not gpu-opt %s -p cse --pass-pipeline=cse 2>&1 | filecheck %s --check-prefix=TWICE
// RUN: not gpu-opt %s --load-pass-plugin=%S/Inputs/faulty_passes.py -p 'builtin.module(crash-on)' 2>&1 | filecheck %s --check-prefix=WRONG-OP
// RUN: not gpu-opt %s --mlir-print-ir-after=csee 2>&1 | filecheck %s --check-prefix=FLAG
// RUN: not gpu-opt %s --mlir-print-ir-before=cse,nope 2>&1 | filecheck %s --check-prefix=FLAG-LIST
// RUN: not gpu-run %s -p 'builtin.module(fnuc.func(cse))' 2>&1 | filecheck %s --check-prefix=RUN-ANCHOR
// RUN: not gpu-run %s --mlir-print-ir-after=csee 2>&1 | filecheck %s --check-prefix=RUN-FLAG

// ANCHOR:      gpu-opt: error: bad pass pipeline 'builtin.module(fnuc.func(cse))': 'fnuc.func' at column 16 is neither a pass nor an op to nest a pipeline on
// PASS-ANCHOR: gpu-opt: error: bad pass pipeline 'builtin.module(cse(dce))': 'cse' at column 16 is a pass, not an op: a nested pipeline is anchored on an op (func.func(cse)), a pass takes its options in braces (cse{…})
// TOP:         gpu-opt: error: bad pass pipeline 'func.func(cse)': a pass pipeline runs on 'builtin.module', not on 'func.func': write builtin.module(func.func(…))
// OPEN:        gpu-opt: error: bad pass pipeline 'builtin.module(func.func(cse)': expected ')' to close 'builtin.module(' at column 1 of 'builtin.module(func.func(cse)'
// CLOSE:       gpu-opt: error: bad pass pipeline 'builtin.module(func.func(cse)))': unexpected ')' at column 31 of 'builtin.module(func.func(cse)))'
// EMPTY:       gpu-opt: error: bad pass pipeline 'builtin.module(,cse)': expected a pass name, found ',' at column 16 of 'builtin.module(,cse)'
// UNKNOWN:     gpu-opt: error: unknown pass 'csee' (did you mean 'cse'?)
// TWICE:       gpu-opt: error: give the pass pipeline once: -p or --pass-pipeline
// WRONG-OP:    gpu-opt: error: bad pass pipeline 'builtin.module(crash-on)': pass 'crash-on' runs on 'func.func' ops, not on 'builtin.module': did you mean builtin.module(func.func(crash-on))?
// FLAG:        gpu-opt: error: --mlir-print-ir-after names the unknown pass 'csee' (did you mean 'cse'?)
// FLAG-LIST:   gpu-opt: error: --mlir-print-ir-before names the unknown pass 'nope'{{$}}
// RUN-ANCHOR:  gpu-run: error: bad pass pipeline 'builtin.module(fnuc.func(cse))': 'fnuc.func' at column 16 is neither a pass nor an op to nest a pipeline on
// RUN-FLAG:    gpu-run: error: --mlir-print-ir-after names the unknown pass 'csee' (did you mean 'cse'?)

func.func @main(%m: !mem.M<0>) -> !mem.M<0> {
  func.return %m : !mem.M<0>
}
