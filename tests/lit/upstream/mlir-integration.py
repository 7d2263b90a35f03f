# REQUIRES: mlir-integration
# RUN: python %S/../../../scripts/run_mlir_integration.py %mlir_integration --expect %S/Inputs/mlir-integration.expected
"""MLIR's own GPU integration tests at the pinned LLVM release, where they have been fetched
(`make mlir-integration`, or `GPUIR_MLIR_INTEGRATION=FOLDER`) and LLVM's `FileCheck-22` is
installed: each file passes or fails on interp and cpu (a compile-only file: through gpu-opt)
as `Inputs/mlir-integration.expected` says, checked by its own CHECK lines."""
