// --list-passes prints every pass of the registry (xDSL's, gpuir's, the lowering's), a line on
// what it does, and its options with their defaults as -p takes them; --help points to it
// instead of listing 150 names.
// RUN: gpu-opt --list-passes | filecheck %s
// RUN: gpu-opt --help | filecheck %s --check-prefix=HELP

// gpuir's passes come first, then xDSL's.
// CHECK:      {{^}}gpuir's passes:{{$}}
// CHECK:      {{^}}cpu-workgroup-loops{{$}}
// CHECK-NEXT: {{^    }}Kernels → work-group functions with item loops
// CHECK:      {{^}}gpu-pipeline{{$}}
// CHECK-NEXT: {{^    }}Run gpuir's default pipeline: its stages (docs/pipelines.md) in order, `split-apply` last with this pass's sub-pipelines.
// CHECK-NEXT: {{^    }}options: host-pipeline="host-malloc-to-gpualloc" device-pipeline="remove-double-syncs"
// CHECK:      {{^}}host-to-llvm{{$}}
// CHECK:      {{^}}xDSL's passes:{{$}}
// CHECK:      {{^}}canonicalize{{$}}
// CHECK-NOT:  cannot be imported

// HELP:     --passes PASSES
// HELP-NEXT: a pass pipeline: 'builtin.module(p1, func.func(p2))'
// HELP:     --list-passes
// HELP-NOT: apply-individual-rewrite
