// MLIR 22 reads what `-t mlir-upstream` writes: mlir-opt-22 parses and verifies it, and lowers
// it, host and device, with its own `--gpu-lower-to-nvvm-pipeline` (PTX as text: no ptxas).
// RUN: gpu-opt %S/../../../../../examples/array.mlir -t mlir-upstream | mlir-opt-22 --verify-each | filecheck %s
// RUN: gpu-opt %S/../../../../../examples/array.mlir -t mlir-upstream | mlir-opt-22 --gpu-lower-to-nvvm-pipeline="cubin-chip=sm_80 cubin-features=+ptx80 cubin-format=isa" | filecheck %s --check-prefix=LOWERED
// RUN: gpu-opt %S/../../../../../examples/manual-streams.mlir -t mlir-upstream | mlir-opt-22 --gpu-lower-to-nvvm-pipeline="cubin-chip=sm_80 cubin-features=+ptx80 cubin-format=isa" | filecheck %s --check-prefix=LOWERED
// RUN: gpu-opt %S/../../../../../examples/histogram.mlir -t mlir-upstream | mlir-opt-22 --gpu-lower-to-nvvm-pipeline="cubin-chip=sm_80 cubin-features=+ptx80 cubin-format=isa" | filecheck %s --check-prefix=LOWERED
// RUN: gpu-opt %S/../../../../../examples/warp-reduce.mlir -t mlir-upstream | mlir-opt-22 --gpu-lower-to-nvvm-pipeline="cubin-chip=sm_80 cubin-features=+ptx80 cubin-format=isa" | filecheck %s --check-prefix=LOWERED
// RUN: gpu-opt %S/../../../../../examples/compaction.mlir -t mlir-upstream | mlir-opt-22 --gpu-lower-to-nvvm-pipeline="cubin-chip=sm_80 cubin-features=+ptx80 cubin-format=isa" | filecheck %s --check-prefix=LOWERED
// RUN: gpu-opt %S/../../../../../examples/two-configurations.mlir -t mlir-upstream | mlir-opt-22 --gpu-lower-to-nvvm-pipeline="cubin-chip=sm_80 cubin-features=+ptx80 cubin-format=isa" | filecheck %s --check-prefix=LOWERED

// CHECK: gpu.module @device [#nvvm.target<O = 3, chip = "sm_80", features = "+ptx80">]
// CHECK: gpu.func @array_kernel(%{{.*}}: memref<4xi32>) kernel
// CHECK: gpu.launch_func async

// LOWERED: gpu.binary @device
// LOWERED-SAME: .visible .entry
// LOWERED: llvm.func @main(
// LOWERED: llvm.call @mgpuStreamCreate()
// LOWERED: gpu.launch_func <%{{.*}} : !llvm.ptr> @device::@
