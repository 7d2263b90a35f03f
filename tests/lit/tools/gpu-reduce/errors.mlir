// gpu-reduce's user errors: one line each, exit 1, never a traceback; no output is written.
// RUN: not gpu-reduce %S/Inputs/unparsable.mlir --test true -o %t.out 2>&1 | filecheck %s --check-prefix=PARSE
// RUN: not gpu-reduce %s --test false -o %t.out 2>&1 | filecheck %s --check-prefix=BORING
// RUN: not gpu-reduce %s --test true -o %t.missing/out.mlir 2>&1 | filecheck %s --check-prefix=FOLDER
// RUN: not gpu-reduce %s --crash 'gpu-opt -p gpu-pipeline' -o %t.out 2>&1 | filecheck %s --check-prefix=NOCRASH
// RUN: not gpu-reduce %s --crash 'true' -o %t.out 2>&1 | filecheck %s --check-prefix=NOTGPUOPT
// RUN: not gpu-reduce %t.nothing --test true -o %t.out 2>&1 | filecheck %s --check-prefix=MISSING
// RUN: not test -e %t.out

// PARSE: gpu-reduce: error: '{{.*}}unparsable.mlir' does not parse and verify: {{.*}}unparsable.mlir:3:19: use of undeclared SSA value name %y
// PARSE-NOT: Traceback
// BORING: gpu-reduce: error: the test is not interesting on '{{.*}}errors.mlir' (expected: `false` exits 0)
// FOLDER: gpu-reduce: error: the folder of '{{.*}}out.mlir' does not exist
// NOCRASH: gpu-reduce: error: the test is not interesting on '{{.*}}' (expected: `gpu-opt -p gpu-pipeline` crashes in the same pass)
// NOTGPUOPT: gpu-reduce: error: --crash takes 'gpu-opt ARGS...', found 'true'
// MISSING: gpu-reduce: error: cannot read '{{.*}}nothing': No such file or directory

func.func @main(%m: !mem.M<0>) -> (!mem.M<0>, i32) {
  %x = arith.constant 1 : i32
  func.return %m, %x : !mem.M<0>, i32
}
