// gpu-run --index-bitwidth 32: the compiled providers lower device code with 32-bit index values
// (the kernel ABI is the same); the result is what the 64-bit default computes. interp has no
// lowering to set it on, and only 32 and 64 are widths.
// RUN: gpu-run %S/../../../examples/array.mlir --provider cpu --index-bitwidth 32 | filecheck %s
// RUN: gpu-run %S/../../../examples/array.mlir --provider cpu --index-bitwidth 64 | filecheck %s
// RUN: not gpu-run %S/../../../examples/array.mlir --provider interp --index-bitwidth 32 2>&1 | filecheck %s --check-prefix=INTERP
// RUN: not gpu-run %S/../../../examples/array.mlir --provider cpu --index-bitwidth 16 2>&1 | filecheck %s --check-prefix=WIDTH

// CHECK: 60
// CHECK-EMPTY:
// INTERP: gpu-run: error: --index-bitwidth is an option of the compiled providers (cpu, cuda), not of interp
// WIDTH: gpu-run: error: argument --index-bitwidth: invalid choice: 16 (choose from 32, 64)
