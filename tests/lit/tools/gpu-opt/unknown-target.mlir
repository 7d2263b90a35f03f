// RUN: not gpu-opt %s -t no-such-target 2>&1 | filecheck %s
// RUN: not gpu-opt %s -t 'mlir{no-such-option=1}' 2>&1 | filecheck %s --check-prefix=OPTION

func.func @f() {
  func.return
}

// CHECK:      gpu-opt: error: argument -t/--target: invalid choice: 'no-such-target' (choose from {{.*}}mlir{{.*}})
// CHECK-NOT:  Traceback

// OPTION:     gpu-opt: error: bad target 'mlir{no-such-option=1}': Provided arguments ["no_such_option"] not found
// OPTION-NOT: Traceback
