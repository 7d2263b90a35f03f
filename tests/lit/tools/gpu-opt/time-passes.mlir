// --mlir-timing (and xdsl-opt's --time-passes) reports each pass's user and wall time to
// stderr in MLIR's format: a tree, with the stages of gpu-pipeline under it and split-apply's
// sub-pipelines under split-apply, beside the tool's own phases; stdout keeps only the IR.
// --mlir-timing-display=list gives one line per name.
// RUN: gpu-opt %s -p gpu-pipeline,cse --mlir-timing 2>&1 >/dev/null | filecheck %s
// RUN: gpu-opt %s -p gpu-pipeline,cse --time-passes 2>&1 >/dev/null | filecheck %s
// RUN: gpu-opt %s -p gpu-pipeline --mlir-timing 2>/dev/null | gpu-opt | filecheck %s --check-prefix=IR
// RUN: gpu-opt %s -p 'gpu-pipeline,builtin.module(func.func(cse))' --mlir-timing --mlir-timing-display=list 2>&1 >/dev/null | filecheck %s --check-prefix=LIST
// RUN: not gpu-opt %s --mlir-timing-display=flat 2>&1 | filecheck %s --check-prefix=BAD

// CHECK:      ===-------------------------------------------------------------------------===
// CHECK-NEXT:                          ... Execution time report ...
// CHECK-NEXT: ===-------------------------------------------------------------------------===
// CHECK-NEXT:   Total Execution Time: {{[0-9.]+}} seconds
// CHECK-EMPTY:
// CHECK-NEXT:   ----User Time----  ----Wall Time----  ----Name----
// CHECK-NEXT:   {{ *[0-9.]+}} ({{ *[0-9.]+}}%){{ *[0-9.]+}} ({{ *[0-9.]+}}%)  Parser
// CHECK-NEXT:   {{ *[0-9.]+}} ({{ *[0-9.]+}}%){{ *[0-9.]+}} ({{ *[0-9.]+}}%)  GpuPipeline
// CHECK-NEXT:   {{ *[0-9.]+}} ({{ *[0-9.]+}}%){{ *[0-9.]+}} ({{ *[0-9.]+}}%)    FuseMapReduce
// CHECK:        {{ *[0-9.]+}} ({{ *[0-9.]+}}%){{ *[0-9.]+}} ({{ *[0-9.]+}}%)    CheckTokens
// CHECK:        {{ *[0-9.]+}} ({{ *[0-9.]+}}%){{ *[0-9.]+}} ({{ *[0-9.]+}}%)    SplitApply
// CHECK-NEXT:   {{ *[0-9.]+}} ({{ *[0-9.]+}}%){{ *[0-9.]+}} ({{ *[0-9.]+}}%)      'builtin.module' Pipeline @host
// CHECK-NEXT:   {{ *[0-9.]+}} ({{ *[0-9.]+}}%){{ *[0-9.]+}} ({{ *[0-9.]+}}%)        HostMallocToGpuAlloc
// CHECK-NEXT:   {{ *[0-9.]+}} ({{ *[0-9.]+}}%){{ *[0-9.]+}} ({{ *[0-9.]+}}%)      'builtin.module' Pipeline @device
// CHECK-NEXT:   {{ *[0-9.]+}} ({{ *[0-9.]+}}%){{ *[0-9.]+}} ({{ *[0-9.]+}}%)        RemoveDoubleSyncs
// CHECK-NEXT:   {{ *[0-9.]+}} ({{ *[0-9.]+}}%){{ *[0-9.]+}} ({{ *[0-9.]+}}%)  CommonSubexpressionElimination
// CHECK-NEXT:   {{ *[0-9.]+}} ({{ *[0-9.]+}}%){{ *[0-9.]+}} ({{ *[0-9.]+}}%)  Output
// CHECK-NEXT:   {{ *[0-9.]+}} ({{ *[0-9.]+}}%){{ *[0-9.]+}} ({{ *[0-9.]+}}%)  Rest
// CHECK-NEXT:   {{ *[0-9.]+}} (100.0%){{ *[0-9.]+}} (100.0%)  Total
// CHECK-NOT:  took

// IR:     builtin.module @host

// LIST:      ----User Time----  ----Wall Time----  ----Name----
// LIST-DAG:  {{^ *[0-9.]+}} ({{ *[0-9.]+}}%){{ *[0-9.]+}} ({{ *[0-9.]+}}%)  'func.func' Pipeline
// LIST-DAG:  {{^ *[0-9.]+}} ({{ *[0-9.]+}}%){{ *[0-9.]+}} ({{ *[0-9.]+}}%)  CommonSubexpressionElimination
// LIST-DAG:  {{^ *[0-9.]+}} ({{ *[0-9.]+}}%){{ *[0-9.]+}} ({{ *[0-9.]+}}%)  SplitApply
// LIST:      {{^ *[0-9.]+}} (100.0%){{ *[0-9.]+}} (100.0%)  Total

// BAD: gpu-opt: error: argument --mlir-timing-display: invalid choice: 'flat' (choose from {{'?}}tree{{'?}}, {{'?}}list{{'?}})

func.func @main(%m: !mem.M<0>) -> !mem.M<0> {
  func.return %m : !mem.M<0>
}
