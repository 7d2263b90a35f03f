// RUN: not gpu-opt %s -t no-such-target 2>&1 | filecheck %s
// RUN: not gpu-opt %s -t 'mlir{no-such-option=1}' 2>&1 | filecheck %s --check-prefix=OPTION
// xDSL's other targets print xDSL's own dialects, not a gpuir program: not offered.
// RUN: not gpu-opt %s -t x86-asm 2>&1 | filecheck %s --check-prefix=XDSL
// RUN: not gpu-opt %s -t wgsl 2>&1 | filecheck %s --check-prefix=XDSL

func.func @f() {
  func.return
}

// CHECK:      gpu-opt: error: argument -t/--target: invalid choice: 'no-such-target' (choose from {{.*}}mlir{{.*}})
// CHECK-NOT:  Traceback

// XDSL:      gpu-opt: error: argument -t/--target: invalid choice: '{{x86-asm|wgsl}}' (choose from mlir, llvm, ptx, sass, host-llvm, mlir-gpu, mlir-upstream, dot)
// XDSL-NOT:  internal error

// OPTION:     gpu-opt: error: bad target 'mlir{no-such-option=1}': Provided arguments ["no_such_option"] not found
// OPTION-NOT: Traceback
