// --time-passes reports each pass's wall time to stderr, as mlir-opt's --mlir-timing does,
// with gpu-pipeline's stages one by one; stdout keeps only the IR. --print-between-passes
// sees inside gpu-pipeline too.
// RUN: gpu-opt %s -p gpu-pipeline,cse --time-passes 2>&1 >/dev/null | filecheck %s
// RUN: gpu-opt %s -p gpu-pipeline --time-passes 2>/dev/null | gpu-opt | filecheck %s --check-prefix=IR
// RUN: gpu-opt %s -p gpu-pipeline --print-between-passes | filecheck %s --check-prefix=BETWEEN

// CHECK:      ===-------------------------------------------------------------------------===
// CHECK-NEXT:                          ... Execution time report ...
// CHECK-NEXT: ===-------------------------------------------------------------------------===
// CHECK-NEXT:   Total Execution Time: {{[0-9.]+}} seconds
// CHECK-EMPTY:
// CHECK-NEXT:   ----Wall Time----  ----Name----
// CHECK-NEXT:   {{ *[0-9.]+}} ({{ *[0-9.]+}}%)  fuse-map-reduce
// CHECK:        {{ *[0-9.]+}} ({{ *[0-9.]+}}%)  split-apply
// CHECK-NEXT:   {{ *[0-9.]+}} ({{ *[0-9.]+}}%)  cse
// CHECK-NEXT:   {{ *[0-9.]+}} (100.0%)  Total
// CHECK-NOT:  took

// IR:     builtin.module @host

// BETWEEN: IR after fuse-map-reduce:
// BETWEEN: IR after buffer-lower-ptr:

func.func @main(%m: !mem.M<0>) -> !mem.M<0> {
  func.return %m : !mem.M<0>
}
