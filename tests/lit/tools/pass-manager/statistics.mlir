// --mlir-pass-statistics: MLIR's report, under the pipeline (the default) or per pass
// (--mlir-pass-statistics-display=list, summed over every place the pass ran); a statistic
// counts over every op the pass ran on.
// RUN: gpu-opt %s --load-pass-plugin=%S/Inputs/faulty_passes.py -p 'builtin.module(func.func(crash-on), cse, func.func(crash-on))' --mlir-pass-statistics -o /dev/null 2>&1 | filecheck %s
// RUN: gpu-opt %s --load-pass-plugin=%S/Inputs/faulty_passes.py -p 'builtin.module(func.func(crash-on), cse, func.func(crash-on))' --mlir-pass-statistics --mlir-pass-statistics-display=list -o /dev/null 2>&1 | filecheck %s --check-prefix=LIST
// RUN: not gpu-opt %s --mlir-pass-statistics-display=tree 2>&1 | filecheck %s --check-prefix=BAD

// CHECK:      ===-------------------------------------------------------------------------===
// CHECK-NEXT:                          ... Pass statistics report ...
// CHECK-NEXT: ===-------------------------------------------------------------------------===
// CHECK-NEXT: 'func.func' Pipeline
// CHECK-NEXT:   CrashOn
// CHECK-NEXT:     (S) 2 num-functions - Number of functions visited
// CHECK-NEXT: CommonSubexpressionElimination
// CHECK-NEXT: 'func.func' Pipeline
// CHECK-NEXT:   CrashOn
// CHECK-NEXT:     (S) 2 num-functions - Number of functions visited

// LIST:      ... Pass statistics report ...
// LIST-NEXT: ===-------------------------------------------------------------------------===
// LIST-NEXT: CrashOn
// LIST-NEXT:   (S) 4 num-functions - Number of functions visited
// LIST-NOT:  CommonSubexpressionElimination

// BAD: gpu-opt: error: argument --mlir-pass-statistics-display: invalid choice: 'tree' (choose from {{'?}}pipeline{{'?}}, {{'?}}list{{'?}})

func.func @f() {
  func.return
}
func.func @g() {
  func.return
}
