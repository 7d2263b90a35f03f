// --upstream-pass=rocdl-attach-target, as mlir-opt's rocdl-attach-target: every gpu.module gets
// a #rocdl.target after its other targets, one that has one keeps it alone, and a gpu.launch
// (the gpu.module MLIR outlines it into) gets one too. The printed targets read back.
// RUN: gpu-opt %s --upstream-pass=rocdl-attach-target --print-upstream | filecheck %s
// RUN: gpu-opt %s --upstream-pass=rocdl-attach-target --print-upstream | gpu-opt --upstream --print-upstream | filecheck %s

// CHECK: "gpu.module"() <{sym_name = "plain"}> ({
// CHECK: }) {targets = [#rocdl.target]}
// CHECK: "gpu.module"() <{sym_name = "nv"}> ({
// CHECK: }) {targets = [#nvvm.target<chip = "sm_80">, #rocdl.target]}
// CHECK: "gpu.module"() <{sym_name = "amd"}> ({
// CHECK: }) {targets = [#rocdl.target<chip = "gfx942">]}
// CHECK: "gpu.launch"
// CHECK: }) {targets = [#rocdl.target]}

module attributes {gpu.container_module} {
  gpu.module @plain {
    gpu.func @k() kernel {
      gpu.return
    }
  }
  gpu.module @nv [#nvvm.target<chip = "sm_80">] {
    gpu.func @k() kernel {
      gpu.return
    }
  }
  gpu.module @amd [#rocdl.target<chip = "gfx942">] {
    gpu.func @k() kernel {
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
      gpu.terminator
    }
    return
  }
}
