// RUN: gpu-opt %s -p convert-gpu-to-nvvm --verify-diagnostics
// RUN: gpu-opt %s -p cpu-workgroup-loops --verify-diagnostics

// A kernel marked gpu.kernel (launched from the Python API, with no gpu.launch to verify)
// whose struct parameter has a field with no GPU representation is an error at the kernel,
// for the PTX and the cpu lowering alike.
builtin.module attributes {gpu.device} {
  // expected-error @below {{field 1.1 of parameter 7 of the kernel @k has type !mem.ptr<f32, 0>, which has no GPU representation}}
  func.func @k(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
               %group: index, %item: index, %n: i32, %p: !llvm.struct<(f32, !llvm.struct<(i8, !mem.ptr<f32, 0>)>)>)
      -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) attributes {gpu.kernel} {
    func.return %m1, %m3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
  }
}
