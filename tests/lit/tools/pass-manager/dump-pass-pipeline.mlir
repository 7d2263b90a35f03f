// --dump-pass-pipeline writes the pipeline to stderr, one element a line, with composite
// passes (gpu-pipeline) spelt out as their stages and every option with its value (as -p takes
// it: dashes, quoted text); the run goes on.
// RUN: gpu-opt %s -p 'gpu-pipeline,builtin.module(func.func(cse))' --dump-pass-pipeline 2>&1 >/dev/null | filecheck %s
// RUN: gpu-opt %s -p 'gpu-pipeline{device-pipeline="cse,canonicalize"},device-to-llvm{index-bitwidth=32}' --dump-pass-pipeline 2>&1 >/dev/null | filecheck %s --check-prefix=OPTIONS
// RUN: gpu-opt %s -p 'gpu-pipeline' --dump-pass-pipeline 2>/dev/null | filecheck %s --check-prefix=RUNS

// CHECK:      Pass Manager with 12 passes:
// CHECK-NEXT: builtin.module(
// CHECK-NEXT:   fuse-map-reduce,
// CHECK-NEXT:   lower-btensor-map-reduce,
// CHECK-NEXT:   merge-init-deinit,
// CHECK-NEXT:   btensor-lower-map-reduce,
// CHECK-NEXT:   expand-gpu-composites,
// CHECK-NEXT:   mem-checks,
// CHECK-NEXT:   buffer-lower-ptr,
// CHECK-NEXT:   check-addr-spaces,
// CHECK-NEXT:   check-tokens,
// CHECK-NEXT:   check-barrier-divergence,
// CHECK-NEXT:   split-apply{host-pipeline="host-malloc-to-gpualloc" device-pipeline="remove-double-syncs"},
// CHECK-NEXT:   builtin.module(
// CHECK-NEXT:     func.func(
// CHECK-NEXT:       cse
// CHECK-NEXT:     )
// CHECK-NEXT:   )
// CHECK-NEXT: )

// OPTIONS:      Pass Manager with 12 passes:
// OPTIONS:      split-apply{host-pipeline="host-malloc-to-gpualloc" device-pipeline="cse,canonicalize"},
// OPTIONS-NEXT: device-to-llvm{index-bitwidth=32 sm=0}
// OPTIONS-NEXT: )

// RUNS: builtin.module @host

func.func @main(%m: !mem.M<0>) -> !mem.M<0> {
  func.return %m : !mem.M<0>
}
