// RUN: gpu-opt %s --split-input-file --verify-diagnostics -p device-to-llvm
// RUN: not gpu-opt %s --split-input-file -p device-to-llvm 2>&1 | filecheck %s
// RUN: not gpu-opt %s -p 'device-to-llvm{index-bitwidth=16}' 2>&1 | filecheck %s --check-prefix=OPTION
// RUN: not gpu-opt %s -t 'ptx{index-bitwidth=48}' 2>&1 | filecheck %s --check-prefix=TARGET

// --verify-diagnostics alone passes when no error comes at all, so the second RUN checks that
// each case gives its error.
// CHECK: index-bitwidth-invalid.mlir:19:5: error: 'arith.constant': the index constant 4294967296 does not fit in 32 bits (index-bitwidth=32)
// CHECK: index-bitwidth-invalid.mlir:29:1: error: gpu.index_bitwidth must be 32 : i64 or 64 : i64, found 16 : i64

// OPTION: index-bitwidth must be 32 or 64, found 16
// TARGET: index-bitwidth must be 32 or 64, found 48

// An index constant must fit in 32 bits (as a signed or an unsigned number) where index values
// are 32-bit (the module's gpu.index_bitwidth, which device-to-llvm{index-bitwidth=32} sets).
builtin.module attributes {gpu.device, gpu.index_bitwidth = 32 : i64} {
  func.func @f(%a: index) -> index {
    // expected-error@+1 {{'arith.constant': the index constant 4294967296 does not fit in 32 bits (index-bitwidth=32)}}
    %big = arith.constant 4294967296 : index
    %r = arith.addi %a, %big : index
    func.return %r : index
  }
}

// -----

// The module's attribute must be 32 or 64.
// expected-error@+1 {{gpu.index_bitwidth must be 32 : i64 or 64 : i64, found 16 : i64}}
builtin.module attributes {gpu.device, gpu.index_bitwidth = 16 : i64} {
  func.func @f(%a: index) -> index {
    func.return %a : index
  }
}
