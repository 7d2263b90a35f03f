// `-t mlir-gpu`: the lowered device module inside upstream MLIR's GPU container, in the generic
// form: `gpu.module @device` with its NVVM target (from the options, as `-t ptx` takes them) and
// the NVPTX data layout, the kernels as `llvm.func`s marked `nvvm.kernel`.
// RUN: gpu-opt %s -t mlir-gpu | filecheck %s
// RUN: gpu-opt %s -t 'mlir-gpu{sm=90 ptx=8.0 opt=2}' | filecheck %s --check-prefix=SM90
// RUN: not gpu-opt %s -t 'mlir-gpu{sm=42}' 2>&1 | filecheck %s --check-prefix=BAD

// CHECK:      "builtin.module"() ({
// CHECK-NEXT:   "gpu.module"() <{sym_name = "device", targets = [#nvvm.target<O = 3, triple = "nvptx64-nvidia-cuda", chip = "sm_80", features = "+ptx80">]}> ({
// CHECK-NEXT:     "llvm.func"() <{sym_name = "k", function_type = !llvm.func<void (!llvm.ptr<1>)>
// CHECK:          }) {gpu.kernel, nvvm.kernel} : () -> ()
// CHECK-NEXT:   }) {llvm.data_layout = "e-{{.*}}"} : () -> ()
// CHECK-NEXT: }) {gpu.container_module} : () -> ()
// SM90: #nvvm.target<O = 2, triple = "nvptx64-nvidia-cuda", chip = "sm_90", features = "+ptx80">
// BAD: sm_42 is not a known NVIDIA architecture

builtin.module attributes {gpu.device} {
  func.func @k(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
               %group: index, %item: index, %out: !mem.ptr<!mem.array<? x i32>, 1>)
      -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) attributes {gpu.kernel} {
    %p = mem.lea %out, %item : !mem.ptr<!mem.array<? x i32>, 1>
    %v = arith.index_cast %item : index to i32
    %s1 = mem.store %m1, %p, %v : !mem.ptr<i32, 1>
    func.return %s1, %m3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
  }
}
