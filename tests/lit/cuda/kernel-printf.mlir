// printf in a kernel on the cuda provider: every line of every work-item, each whole and
// formatted as the host formats it, between the host's lines before and after the launch (the
// order of the work-items' lines is the device's). PTX: atom.global.add claims each record.
// RUN: gpu-run %S/../../../examples/kernel-printf.mlir --provider cuda | filecheck %s

// CHECK:     host: before the launch
// CHECK-DAG: {{^}}  1 -0.0 inf nan -56 {{[{]}}braces{{[}]}}
// CHECK-DAG: {{^}}  1 -0.0 inf nan -56 {{[{]}}braces{{[}]}}
// CHECK-DAG: group 0 item 0: after, neighbour = 0.1
// CHECK-DAG: group 0 item 0: before, v = 0.0
// CHECK-DAG: group 0 item 1: after, neighbour = 0.2
// CHECK-DAG: group 0 item 1: before, v = 0.1
// CHECK-DAG: group 0 item 2: after, neighbour = 0.0
// CHECK-DAG: group 0 item 2: before, v = 0.2
// CHECK-DAG: group 1 item 0: after, neighbour = 0.1
// CHECK-DAG: group 1 item 0: before, v = 0.0
// CHECK-DAG: group 1 item 1: after, neighbour = 0.2
// CHECK-DAG: group 1 item 1: before, v = 0.1
// CHECK-DAG: group 1 item 2: after, neighbour = 0.0
// CHECK-DAG: group 1 item 2: before, v = 0.2
// CHECK:     host: after the launch
