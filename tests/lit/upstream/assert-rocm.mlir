// cf.assert in a kernel follows the kernel's target: a gpu.module for ROCm (#rocdl.target)
// reports a failed assert in ROCm's words (file:line: function Device-side assertion `msg'
// failed., the function (unknown) unless a name location gives one), any other (#nvvm.target,
// or none) in CUDA's. Threads 2 and 3 of 4 fail in each kernel; the others print.
// RUN: gpu-run %s --provider interp | filecheck %s
// RUN: gpu-run %s --provider cpu | filecheck %s
// rocdl-attach-target, as mlir-opt's, gives every gpu.module (and gpu.launch) ROCm's target:
// RUN: gpu-run %s --provider interp --upstream-pass=rocdl-attach-target | filecheck %s --check-prefix=ALL-ROCM
// RUN: gpu-run %s --provider cpu --upstream-pass=rocdl-attach-target | filecheck %s --check-prefix=ALL-ROCM

// CHECK:      amd 0 passed
// CHECK-NEXT: amd 1 passed
// CHECK-NEXT: assert-rocm.mlir:38: (unknown) Device-side assertion `below two' failed.
// CHECK-NEXT: assert-rocm.mlir:38: (unknown) Device-side assertion `below two' failed.
// CHECK-NEXT: lib.hip:7: helper Device-side assertion `named' failed.
// CHECK-NEXT: nv 0 passed
// CHECK-NEXT: nv 1 passed
// CHECK-NEXT: assert-rocm.mlir:53: nv_kernel: block: [0,0,0], thread: [2,0,0] Assertion `below two` failed.
// CHECK-NEXT: assert-rocm.mlir:53: nv_kernel: block: [0,0,0], thread: [3,0,0] Assertion `below two` failed.
// CHECK-NEXT: assert-rocm.mlir:68: launch_kernel: block: [0,0,0], thread: [0,0,0] Assertion `in a launch` failed.
// CHECK-NOT:  Assertion
// CHECK-NOT:  Device-side

// ALL-ROCM:      assert-rocm.mlir:38: (unknown) Device-side assertion `below two' failed.
// ALL-ROCM:      lib.hip:7: helper Device-side assertion `named' failed.
// ALL-ROCM:      nv 1 passed
// ALL-ROCM-NEXT: assert-rocm.mlir:53: (unknown) Device-side assertion `below two' failed.
// ALL-ROCM-NEXT: assert-rocm.mlir:53: (unknown) Device-side assertion `below two' failed.
// ALL-ROCM-NEXT: assert-rocm.mlir:68: (unknown) Device-side assertion `in a launch' failed.
// ALL-ROCM-NOT:  Assertion `

module attributes {gpu.container_module} {
  gpu.module @amd [#rocdl.target<chip = "gfx90a", O = 3>] {
    gpu.func @amd_kernel(%n: index) kernel {
      %tid = gpu.thread_id x
      %ok = arith.cmpi ult, %tid, %n : index
      %t = arith.index_cast %tid : index to i32
      cf.assert %ok, "below two"
      gpu.printf "amd %d passed\n", %t : i32
      gpu.return
    }
    gpu.func @amd_located() kernel {
      %false = arith.constant false
      cf.assert %false, "named" loc("helper"("lib.hip":7:1))
      gpu.return
    }
  }
  gpu.module @nv [#nvvm.target<chip = "sm_80">] {
    gpu.func @nv_kernel(%n: index) kernel {
      %tid = gpu.thread_id x
      %ok = arith.cmpi ult, %tid, %n : index
      %t = arith.index_cast %tid : index to i32
      cf.assert %ok, "below two"
      gpu.printf "nv %d passed\n", %t : i32
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    gpu.launch_func @amd::@amd_kernel blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%c2 : index)
    gpu.launch_func @amd::@amd_located blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    gpu.launch_func @nv::@nv_kernel blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%c2 : index)
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
      %false = arith.constant false
      cf.assert %false, "in a launch"
      gpu.terminator
    }
    return
  }
}
