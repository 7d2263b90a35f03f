// printf in a kernel, on interp and cpu: the same lines in the same order (group by group, item
// by item up to the barrier, then again), each call whole, values formatted as the host
// formats them, the launch's output between the host's lines before and after it.
// RUN: gpu-run %S/../../../examples/kernel-printf.mlir --provider interp | filecheck %s
// RUN: gpu-run %S/../../../examples/kernel-printf.mlir --provider cpu | filecheck %s
// RUN: gpu-run %S/../../../examples/kernel-printf.mlir --provider cpu --index-bitwidth 32 | filecheck %s

// CHECK: host: before the launch
// CHECK-NEXT: group 0 item 0: before, v = 0.0
// CHECK-NEXT: group 0 item 1: before, v = 0.1
// CHECK-NEXT: group 0 item 2: before, v = 0.2
// CHECK-NEXT: group 0 item 0: after, neighbour = 0.1
// CHECK-NEXT: group 0 item 1: after, neighbour = 0.2
// CHECK-NEXT: group 0 item 2: after, neighbour = 0.0
// CHECK-NEXT: {{^}}  1 -0.0 inf nan -56 {{[{]}}braces{{[}]}}
// CHECK-NEXT: group 1 item 0: before, v = 0.0
// CHECK-NEXT: group 1 item 1: before, v = 0.1
// CHECK-NEXT: group 1 item 2: before, v = 0.2
// CHECK-NEXT: group 1 item 0: after, neighbour = 0.1
// CHECK-NEXT: group 1 item 1: after, neighbour = 0.2
// CHECK-NEXT: group 1 item 2: after, neighbour = 0.0
// CHECK-NEXT: {{^}}  1 -0.0 inf nan -56 {{[{]}}braces{{[}]}}
// CHECK-NEXT: host: after the launch
// CHECK-EMPTY:
