// What the importer refuses of gpu.modules written in the llvm dialect: each error at the op.
// RUN: not gpu-opt %s --split-input-file -t ptx 2>&1 | filecheck %s

// llvm-dialect kernels are device code alone: a program with host code launches gpu.funcs.
// CHECK: llvm-gpu-module-invalid.mlir:8:5: error: importing upstream MLIR: 'llvm.func' in a gpu.module is read only in a program of such gpu.modules alone, all of llvm ops (device code for gpu-opt's -t llvm / -t ptx / -t sass)
module attributes {gpu.container_module} {
  gpu.module @kernels {
    llvm.func @k() attributes {gpu.kernel, nvvm.kernel} {
      llvm.return
    }
  }
  func.func @main() {
    return
  }
}

// -----

// Nor beside a gpu.func in the same gpu.module.
// CHECK: llvm-gpu-module-invalid.mlir:25:3: error: importing upstream MLIR: 'llvm.func' in a gpu.module is read only
gpu.module @kernels {
  gpu.func @k() kernel {
    gpu.return
  }
  llvm.func @helper() {
    llvm.return
  }
}

