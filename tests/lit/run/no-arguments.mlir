// The no-arguments example: main copies its argument to the device and back, unchanged.
// RUN: gpu-run %S/../../../examples/no-arguments.mlir --provider interp 7 | filecheck %s
// RUN: gpu-run %S/../../../examples/no-arguments.mlir --provider interp -- -2147483648 | filecheck %s --check-prefix=MIN
// RUN: gpu-run %S/../../../examples/no-arguments.mlir --provider interp 0xffffffff | filecheck %s --check-prefix=WRAP

// CHECK:      7
// CHECK-EMPTY:

// MIN: -2147483648

// An i32 argument may be written unsigned; it prints signed.
// WRAP: -1
