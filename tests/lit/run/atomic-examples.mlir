// The atomics and warp-operation examples on cpu and interp; the expected numbers are the
// closed forms: n (n - 1) / 2, the count and sum of the odd values 3k + 1, and
// (n - 1) n (2n - 1) / 6.
// RUN: gpu-run %S/../../../examples/global-sum.mlir --provider cpu 100000 | filecheck %s --check-prefix=SUM
// RUN: gpu-run %S/../../../examples/global-sum.mlir --provider interp 5000 | filecheck %s --check-prefix=SMALLSUM
// RUN: gpu-run %S/../../../examples/compaction.mlir --provider cpu 1000 | filecheck %s --check-prefix=COMPACT
// RUN: gpu-run %S/../../../examples/compaction.mlir --provider interp 1000 | filecheck %s --check-prefix=COMPACT
// RUN: gpu-run %S/../../../examples/warp-reduce.mlir --provider cpu 4000 | filecheck %s --check-prefix=WARP
// RUN: gpu-run %S/../../../examples/warp-reduce.mlir --provider interp 1000 | filecheck %s --check-prefix=SMALLWARP
// SUM:        {{^}}4999950000{{$}}
// SMALLSUM:   {{^}}12497500{{$}}
// COMPACT:      {{^}}500{{$}}
// COMPACT-NEXT: {{^}}749000{{$}}
// WARP:       {{^}}21325334000{{$}}
// SMALLWARP:  {{^}}332833500{{$}}
