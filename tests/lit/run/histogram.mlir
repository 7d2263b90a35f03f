// examples/histogram.mlir: shared-memory atomics per work-group, then global atomics. The
// counts are numpy's (np.bincount of the same hashed values): n = 2,000 on interp (which also
// checks that no plain access races with the atomics), 1,000,000 on cpu.
// RUN: gpu-run %S/../../../examples/histogram.mlir --provider interp 2000 | filecheck %s --check-prefix=SMALL
// RUN: gpu-run %S/../../../examples/histogram.mlir --provider cpu 2000 | filecheck %s --check-prefix=SMALL
// RUN: gpu-run %S/../../../examples/histogram.mlir --provider cpu 1000000 | filecheck %s --check-prefix=LARGE
// SMALL:      {{^}}9{{$}}
// SMALL-NEXT: {{^}}9{{$}}
// SMALL-NEXT: {{^}}8{{$}}
// SMALL-NEXT: {{^}}8{{$}}
// SMALL-NEXT: {{^}}2000{{$}}
// LARGE:      {{^}}3906{{$}}
// LARGE-NEXT: {{^}}3908{{$}}
// LARGE-NEXT: {{^}}3906{{$}}
// LARGE-NEXT: {{^}}3906{{$}}
// LARGE-NEXT: {{^}}1000000{{$}}
