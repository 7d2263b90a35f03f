// --mlir-pass-pipeline-crash-reproducer=FILE: when a pass fails, FILE gets the IR the
// pipeline started from and the whole pipeline (mlir-opt's default), or with
// --mlir-pass-pipeline-local-reproducer the IR the failing pass got and that pass alone;
// --run-reproducer FILE fails again the same way. A pass that raises, one that reports a
// diagnostic and one whose result does not verify are failures alike.
// RUN: not gpu-opt %s --load-pass-plugin=%S/Inputs/faulty_passes.py -p 'builtin.module(canonicalize, func.func(cse, crash-on))' --mlir-pass-pipeline-crash-reproducer=%t.full.mlir 2>&1 | filecheck %s --check-prefix=CRASH
// RUN: filecheck %s --check-prefix=FULL < %t.full.mlir
// RUN: not gpu-opt %t.full.mlir --load-pass-plugin=%S/Inputs/faulty_passes.py --run-reproducer 2>&1 | filecheck %s --check-prefix=AGAIN
// RUN: not gpu-opt %s --load-pass-plugin=%S/Inputs/faulty_passes.py -p 'builtin.module(canonicalize, func.func(cse, crash-on))' --mlir-pass-pipeline-crash-reproducer=%t.local.mlir --mlir-pass-pipeline-local-reproducer 2>&1 | filecheck %s --check-prefix=LOCAL-NOTE
// RUN: filecheck %s --check-prefix=LOCAL < %t.local.mlir
// RUN: not gpu-opt %t.local.mlir --load-pass-plugin=%S/Inputs/faulty_passes.py --run-reproducer 2>&1 | filecheck %s --check-prefix=AGAIN
// A reproducer is an input like any other: without --run-reproducer its block is ignored.
// RUN: gpu-opt %t.local.mlir | filecheck %s --check-prefix=PLAIN
// RUN: not gpu-opt %s --load-pass-plugin=%S/Inputs/faulty_passes.py -p 'refuse' --mlir-pass-pipeline-crash-reproducer=%t.refuse.mlir --mlir-pass-pipeline-local-reproducer 2>&1 | filecheck %s --check-prefix=REFUSE
// RUN: filecheck %s --check-prefix=REFUSE-FILE < %t.refuse.mlir
// RUN: not gpu-opt %s --load-pass-plugin=%S/Inputs/faulty_passes.py -p 'break-terminator' --mlir-pass-pipeline-crash-reproducer=%t.broken.mlir 2>&1 | filecheck %s --check-prefix=BROKEN
// RUN: filecheck %s --check-prefix=BROKEN-FILE < %t.broken.mlir
// Inside a composite pass: the failing stage is named, and the local reproducer runs it alone.
// An op pass that walked a module (from a flat list) is written back as a flat list.
// RUN: not gpu-opt %s --load-pass-plugin=%S/Inputs/faulty_passes.py -p 'gpu-pipeline{host-pipeline="crash-on"}' --mlir-pass-pipeline-crash-reproducer=%t.stage.mlir --mlir-pass-pipeline-local-reproducer 2>&1 | filecheck %s --check-prefix=STAGE
// RUN: filecheck %s --check-prefix=STAGE-FILE < %t.stage.mlir
// RUN: not gpu-opt %t.stage.mlir --load-pass-plugin=%S/Inputs/faulty_passes.py --run-reproducer 2>&1 | filecheck %s --check-prefix=AGAIN
// RUN: not gpu-opt %s --load-pass-plugin=%S/Inputs/faulty_passes.py -p 'builtin.module(func.func(crash-on))' --mlir-pass-pipeline-crash-reproducer=%t.missing/r.mlir 2>&1 | filecheck %s --check-prefix=UNWRITABLE

// CRASH:      gpu-opt: internal error in pass 'crash-on': RuntimeError: the pass has a bug
// CRASH-NEXT: gpu-opt: note: Pipeline failed while executing [`CrashOn` on 'func.func' operation]: reproducer generated at `{{.*}}.full.mlir`
// CRASH-NEXT: gpu-opt: note: set GPUIR_DEBUG=1 to see the Python traceback

// FULL:      builtin.module {
// FULL-NEXT:   func.func @main(%m: !mem.M<0>) -> !mem.M<0> {
// FULL:        func.func @crash() {
// FULL:      {-#
// FULL-NEXT:   external_resources: {
// FULL-NEXT:     mlir_reproducer: {
// FULL-NEXT:       pipeline: "builtin.module(canonicalize, func.func(cse, crash-on))",
// FULL-NEXT:       disable_threading: true,
// FULL-NEXT:       verify_each: true
// FULL-NEXT:     }
// FULL-NEXT:   }
// FULL-NEXT: #-}

// AGAIN:      gpu-opt: internal error in pass 'crash-on': RuntimeError: the pass has a bug

// LOCAL-NOTE: gpu-opt: note: Pipeline failed while executing `CrashOn` on 'func.func' operation: reproducer generated at `{{.*}}.local.mlir`

// LOCAL:      builtin.module {
// LOCAL-NEXT:   func.func @crash() {
// LOCAL-NEXT:     func.return
// LOCAL-NEXT:   }
// LOCAL-NEXT: }
// LOCAL:      pipeline: "builtin.module(func.func(crash-on))",

// PLAIN:      func.func @crash() {

// REFUSE:      crash-reproducer.mlir:{{[0-9]+}}:1: error: refuse: this function is refused
// REFUSE:      note: Pipeline failed while executing `Refuse` on 'builtin.module' operation: reproducer generated at `{{.*}}.refuse.mlir`
// REFUSE-FILE: func.func @refuse() {
// REFUSE-FILE: pipeline: "refuse",

// BROKEN:      crash-reproducer.mlir:{{[0-9]+}}:1: error: Operation func.func contains empty block in single-block region that expects at least a terminator
// BROKEN:      note: the IR that pass 'break-terminator' produced does not verify
// BROKEN-NEXT: note: Pipeline failed while executing [`Break` on 'builtin.module' operation]: reproducer generated at `{{.*}}.broken.mlir`
// BROKEN-FILE: func.func @broken() {
// BROKEN-FILE-NEXT: func.return
// BROKEN-FILE: pipeline: "break-terminator",

// STAGE:      gpu-opt: internal error in pass 'crash-on': RuntimeError: the pass has a bug
// STAGE-NEXT: gpu-opt: note: Pipeline failed while executing `CrashOn` on 'builtin.module' operation: reproducer generated at `{{.*}}.stage.mlir`
// STAGE-FILE: builtin.module @host {
// STAGE-FILE:   func.func @crash() {
// STAGE-FILE: pipeline: "crash-on",

// UNWRITABLE: gpu-opt: internal error in pass 'crash-on': RuntimeError: the pass has a bug
// UNWRITABLE-NEXT: gpu-opt: note: could not write the reproducer '{{.*}}.missing/r.mlir': No such file or directory

func.func @main(%m: !mem.M<0>) -> !mem.M<0> {
  func.return %m : !mem.M<0>
}

func.func @crash() {
  func.return
}

func.func @refuse() {
  func.return
}

func.func @broken() {
  func.return
}
