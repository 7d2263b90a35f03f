// What the importer refuses of amdgpu: sched_barrier's options not in angle brackets, and the
// amdgpu ops it does not read. Each an error at the op.
// RUN: not gpu-opt %s --split-input-file 2>&1 | filecheck %s

// CHECK: amdgpu-sched-barrier-invalid.mlir:10:34: error: Expected '<'
func.func @main() {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    amdgpu.sched_barrier allow = none
    gpu.terminator
  }
  return
}

// -----

// CHECK: amdgpu-sched-barrier-invalid.mlir:24:5: error: Operation amdgpu.lds_barrier is not registered
func.func @main() {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    amdgpu.lds_barrier
    gpu.terminator
  }
  return
}
