// The map_chain example, w = (x * 2 + 1) * x for x = 0, 1, 2, 3, -1, -2.5, 0.5, 0.1:
// (2x + 1) * x = 0, 3 * 1, 5 * 2, 7 * 3, -1 * -1, -4 * -2.5, 2 * 0.5 and 1.2 * 0.1. The default
// pipeline fuses the three maps into one kernel; without fuse-map-reduce three kernels run in one
// session and the intermediates stay on the device. Both print the same.
// RUN: gpu-run %S/../../../examples/map_chain.mlir --provider interp | filecheck %s
// RUN: gpu-run %S/../../../examples/map_chain.mlir --provider interp -p lower-btensor-map-reduce,merge-init-deinit,expand-gpu-composites,mem-checks,buffer-lower-ptr,check-addr-spaces,split-apply | filecheck %s
// RUN: gpu-run %S/../../../examples/map_chain.mlir --provider cpu | filecheck %s

// CHECK:      0.00, 3.00, 10.00, 21.00, 1.00, 10.00, 1.00, 0.12,
// CHECK-EMPTY:
