// RUN: gpu-opt %s -p convert-gpu-to-nvvm --verify-diagnostics --split-input-file

// A collective on a type that NVPTX has no lowering for.
builtin.module attributes {gpu.device} {
  func.func @f(%m1: !mem.M<1>, %m3: !mem.M<3>, %v: f128) -> (!mem.M<1>, !mem.M<3>, f128) {
    // expected-error @below {{'gpu.workgroup_reduce' on f128 has no NVPTX lowering}}
    %a1, %a3, %r = gpu.workgroup_reduce "add" %m1, %m3, %v : f128
    func.return %a1, %a3, %r : !mem.M<1>, !mem.M<3>, f128
  }
}


// -----

// The name of a collective's function is taken by the program's own.
builtin.module attributes {gpu.device} {
  func.func @__gpuir_workgroup_scan_add_i32(%v: i32) -> i32 {
    func.return %v : i32
  }
  func.func @f(%m1: !mem.M<1>, %m3: !mem.M<3>, %v: i32) -> (!mem.M<1>, !mem.M<3>, i32) {
    // expected-error @below {{'gpu.workgroup_scan' needs the symbol @__gpuir_workgroup_scan_add_i32, which the module uses}}
    %a1, %a3, %r = gpu.workgroup_scan "add" %m1, %m3, %v : i32
    func.return %a1, %a3, %r : !mem.M<1>, !mem.M<3>, i32
  }
}


// -----

// ... and the name of a scratch global.
builtin.module attributes {gpu.device} {
  llvm.mlir.global internal @__gpuir_wg_scratch_f32() {addr_space = 3 : i32} : !llvm.array<4 x f32>
  func.func @f(%m1: !mem.M<1>, %m3: !mem.M<3>, %v: f32) -> (!mem.M<1>, !mem.M<3>, f32) {
    // expected-error @below {{'gpu.workgroup_reduce' needs the symbol @__gpuir_wg_scratch_f32, which the module uses}}
    %a1, %a3, %r = gpu.workgroup_reduce "min" %m1, %m3, %v : f32
    func.return %a1, %a3, %r : !mem.M<1>, !mem.M<3>, f32
  }
}


// -----

// Host-side gpu ops have no device lowering.
builtin.module attributes {gpu.device} {
  func.func @f(%m1: !mem.M<1>) -> !mem.M<1> {
    // expected-error @below {{'gpu.alloc.block' is host code; it cannot be lowered for the device}}
    %a1, %p = gpu.alloc.block %m1 : !mem.ptr<i32, 1>
    func.return %a1 : !mem.M<1>
  }
}


// -----

// Composites must be expanded first (device-to-llvm does).
builtin.module attributes {gpu.device} {
  func.func @f(%m1: !mem.M<1>, %m3: !mem.M<3>) -> (!mem.M<1>, !mem.M<3>) {
    // expected-error @below {{'gpu.synced_scope' is a composite: run expand-gpu-composites first}}
    %a1, %a3 = gpu.synced_scope %m1, %m3 {
    ^bb0(%x: !mem.M<1>, %y: !mem.M<3>):
      gpu.yield %x, %y : !mem.M<1>, !mem.M<3>
    }
    func.return %a1, %a3 : !mem.M<1>, !mem.M<3>
  }
}


// -----

// A kernel has the kernel signature.
builtin.module attributes {gpu.device} {
  // expected-error @below {{the kernel @k must take (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>, index, index, …) and return (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>), found (!mem.M<1>, index) -> !mem.M<1>}}
  func.func @k(%m1: !mem.M<1>, %i: index) -> !mem.M<1> attributes {gpu.kernel} {
    func.return %m1 : !mem.M<1>
  }
}


// -----

// A kernel loses its id parameters, so device code cannot call it.
builtin.module attributes {gpu.device} {
  func.func @k(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>, %g: index, %i: index)
      -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) attributes {gpu.kernel} {
    func.return %m1, %m3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
  }
  func.func @f(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>, %g: index)
      -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
    // expected-error @below {{'func.call' calls the kernel @k; a kernel can only be launched}}
    %a1, %a3, %a4, %a5 = func.call @k(%m1, %m3, %m4, %m5, %g, %g) : (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>, index, index) -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>)
    func.return %a1, %a3, %a4, %a5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
  }
}


// -----

// expected-error @unknown {{convert-gpu-to-nvvm: found no device module (a builtin.module with the gpu.device attribute); run split-apply (or gpu-pipeline) first}}
// The lowerings work on device modules only: a program that is not split has none.
func.func @f(%m1: !mem.M<1>, %m3: !mem.M<3>) -> (!mem.M<1>, !mem.M<3>) {
  %a1, %a3 = gpu.sync_work_items %m1, %m3
  func.return %a1, %a3 : !mem.M<1>, !mem.M<3>
}
