// The work-group collectives example on interp and cpu: both print exactly what
// Inputs/workgroup_collectives.py computes from the definitions with numpy.float32 (IR.md's fixed
// tree for reduce, the left fold for scan), over groups of 100 items.
// RUN: python %S/Inputs/workgroup_collectives.py > %t.expected
// RUN: gpu-run %S/../../../examples/workgroup-collectives.mlir --provider interp > %t.interp
// RUN: diff %t.expected %t.interp
// RUN: gpu-run %S/../../../examples/workgroup-collectives.mlir --provider cpu > %t.cpu
// RUN: diff %t.expected %t.cpu
// RUN: filecheck %s < %t.expected

// The orders matter: group 0's tree sum is not its left fold (the scan's last element).
// CHECK:      group 0 f32 sum: 100005.19
// CHECK-NEXT: group 0 f32 scan: 1001.0 2001.5 {{.*}} 100005.18{{$}}
// CHECK-NEXT: group 0 i32 max: 50
// CHECK-NEXT: group 0 i32 scan: -50 -63 {{.*}}
// CHECK-NEXT: group 1 f32 sum: 100000.69
// CHECK-NEXT: group 1 f32 scan: {{.*}} 100000.805{{$}}
// CHECK-NEXT: group 1 i32 max: 50
// CHECK-NEXT: group 1 i32 scan: 14 -36 {{.*}}
// CHECK-EMPTY:
