// RUN: gpu-opt %s -p convert-math-to-llvm --split-input-file | filecheck %s
// RUN: gpu-opt %s -p convert-math-to-llvm --split-input-file --mlir-pass-statistics -o /dev/null 2>&1 | filecheck %s --check-prefix=STATS

// The statistics of the whole file: 19 math ops: exp, log, sin, tanh, powf and fpowi call
// libdevice, the other 13 are intrinsics.
// STATS:      {{^}}ConvertMathToLlvm
// STATS-NEXT:   (S) 13 num-intrinsic-calls - Number of math ops lowered to LLVM intrinsics
// STATS-NEXT:   (S)  6 num-libdevice-calls - Number of math ops lowered to libdevice calls

// What NVPTX does exactly is an LLVM intrinsic.
builtin.module attributes {gpu.device} {
  func.func @intrinsics(%x: f32, %y: f32, %z: f32, %i: i32) -> (f32, f32, f32, f32, f32, f32, f32, f32, f32, i32, i32, i32, i32) {
    %0 = math.absf %x : f32
    %1 = math.ceil %x : f32
    %2 = math.floor %x : f32
    %3 = math.trunc %x : f32
    %4 = math.round %x : f32
    %5 = math.roundeven %x : f32
    %6 = math.sqrt %x : f32
    %7 = math.fma %x, %y, %z : f32
    %8 = math.copysign %x, %y : f32
    %9 = math.absi %i : i32
    %10 = math.ctlz %i : i32
    %11 = math.cttz %i : i32
    %12 = math.ctpop %i : i32
    func.return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12 : f32, f32, f32, f32, f32, f32, f32, f32, f32, i32, i32, i32, i32
  }
}

// CHECK: builtin.module attributes {gpu.device} {
// CHECK-NEXT:   func.func @intrinsics(%x: f32, %y: f32, %z: f32, %i: i32) -> (f32, f32, f32, f32, f32, f32, f32, f32, f32, i32, i32, i32, i32) {
// CHECK-NEXT:     %0 = llvm.call_intrinsic "llvm.fabs.f32"(%x) : (f32) -> f32
// CHECK-NEXT:     %1 = llvm.call_intrinsic "llvm.ceil.f32"(%x) : (f32) -> f32
// CHECK-NEXT:     %2 = llvm.call_intrinsic "llvm.floor.f32"(%x) : (f32) -> f32
// CHECK-NEXT:     %3 = llvm.call_intrinsic "llvm.trunc.f32"(%x) : (f32) -> f32
// CHECK-NEXT:     %4 = llvm.call_intrinsic "llvm.round.f32"(%x) : (f32) -> f32
// CHECK-NEXT:     %5 = llvm.call_intrinsic "llvm.roundeven.f32"(%x) : (f32) -> f32
// CHECK-NEXT:     %6 = llvm.call_intrinsic "llvm.sqrt.f32"(%x) : (f32) -> f32
// CHECK-NEXT:     %7 = llvm.call_intrinsic "llvm.fma.f32"(%x, %y, %z) : (f32, f32, f32) -> f32
// CHECK-NEXT:     %8 = llvm.call_intrinsic "llvm.copysign.f32"(%x, %y) : (f32, f32) -> f32
// CHECK-NEXT:     %9 = llvm.mlir.constant(false) : i1
// CHECK-NEXT:     %10 = llvm.call_intrinsic "llvm.abs.i32"(%i, %9) : (i32, i1) -> i32
// CHECK-NEXT:     %11 = llvm.mlir.constant(false) : i1
// CHECK-NEXT:     %12 = llvm.call_intrinsic "llvm.ctlz.i32"(%i, %11) : (i32, i1) -> i32
// CHECK-NEXT:     %13 = llvm.mlir.constant(false) : i1
// CHECK-NEXT:     %14 = llvm.call_intrinsic "llvm.cttz.i32"(%i, %13) : (i32, i1) -> i32
// CHECK-NEXT:     %15 = llvm.call_intrinsic "llvm.ctpop.i32"(%i) : (i32) -> i32
// CHECK-NEXT:     func.return %0, %1, %2, %3, %4, %5, %6, %7, %8, %10, %12, %14, %15 : f32, f32, f32, f32, f32, f32, f32, f32, f32, i32, i32, i32, i32
// CHECK-NEXT:   }
// CHECK-NEXT: }

// -----

// The transcendental functions are calls of CUDA's libdevice: @__nv_<name>f for f32,
// @__nv_<name> for f64; f16 is computed in f32.
builtin.module attributes {gpu.device} {
  func.func @libdevice(%x: f32, %y: f32, %d: f64, %h: f16, %n: i32) -> (f32, f32, f32, f64, f16, f32) {
    %0 = math.exp %x : f32
    %1 = math.powf %x, %y : f32
    %2 = math.tanh %x : f32
    %3 = math.log %d : f64
    %4 = math.sin %h : f16
    %5 = math.fpowi %x, %n : f32, i32
    func.return %0, %1, %2, %3, %4, %5 : f32, f32, f32, f64, f16, f32
  }
}

// CHECK: builtin.module attributes {gpu.device} {
// CHECK-NEXT:   llvm.func @__nv_powif(f32, i32) -> f32
// CHECK-NEXT:   llvm.func @__nv_sinf(f32) -> f32
// CHECK-NEXT:   llvm.func @__nv_log(f64) -> f64
// CHECK-NEXT:   llvm.func @__nv_tanhf(f32) -> f32
// CHECK-NEXT:   llvm.func @__nv_powf(f32, f32) -> f32
// CHECK-NEXT:   llvm.func @__nv_expf(f32) -> f32
// CHECK-NEXT:   func.func @libdevice(%x: f32, %y: f32, %d: f64, %h: f16, %n: i32) -> (f32, f32, f32, f64, f16, f32) {
// CHECK-NEXT:     %0 = llvm.call @__nv_expf(%x) : (f32) -> f32
// CHECK-NEXT:     %1 = llvm.call @__nv_powf(%x, %y) : (f32, f32) -> f32
// CHECK-NEXT:     %2 = llvm.call @__nv_tanhf(%x) : (f32) -> f32
// CHECK-NEXT:     %3 = llvm.call @__nv_log(%d) : (f64) -> f64
// CHECK-NEXT:     %4 = llvm.fpext %h : f16 to f32
// CHECK-NEXT:     %5 = llvm.call @__nv_sinf(%4) : (f32) -> f32
// CHECK-NEXT:     %6 = llvm.fptrunc %5 : f32 to f16
// CHECK-NEXT:     %7 = llvm.call @__nv_powif(%x, %n) : (f32, i32) -> f32
// CHECK-NEXT:     func.return %0, %1, %2, %3, %6, %7 : f32, f32, f32, f64, f16, f32
// CHECK-NEXT:   }
// CHECK-NEXT: }
