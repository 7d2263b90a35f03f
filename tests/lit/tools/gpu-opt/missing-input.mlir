// RUN: not gpu-opt %t.does-not-exist.mlir 2>&1 | filecheck %s
// RUN: not gpu-opt %S 2>&1 | filecheck %s --check-prefix=DIR

// CHECK:     gpu-opt: error: cannot read '{{.*}}.does-not-exist.mlir': No such file or directory
// CHECK-NOT: Traceback

// DIR:     gpu-opt: error: cannot read '{{.*}}gpu-opt': Is a directory
// DIR-NOT: Traceback
