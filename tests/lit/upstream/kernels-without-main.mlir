// A program without @main is a library of kernels: the import makes each gpu.func kernel of
// its gpu.modules and each gpu.launch of its host functions (outlined, its captured values the
// kernel's arguments) a function marked gpu.kernel, which gpu-opt's targets compile (no launch
// names them). gpu-run wants @main and says so.
// RUN: gpu-opt %s | filecheck %s
// RUN: gpu-opt %s -t 'ptx{sm=80 line-info=false}' | filecheck %s --check-prefix=PTX
// RUN: not gpu-run %s --provider interp 2>&1 | filecheck %s --check-prefix=NOMAIN

// CHECK:     func.func @scale({{.*}}%out: !mem.ptr<!mem.array<? x f32>, 1>, %out_extent: index, %k: f32)
// CHECK-SAME: attributes {gpu.kernel}
// CHECK:     func.func @launch_kernel({{.*}}%x: f32, %buf: !mem.ptr<!mem.array<? x f32>, 1>, %buf_extent: index)
// CHECK-SAME: attributes {gpu.kernel}
// CHECK-NOT: func.func

// PTX: .visible .entry scale(
// PTX: mul.rn.f32
// PTX: .visible .entry launch_kernel(
// PTX: st.global.b32

// NOMAIN: kernels-without-main.mlir: error: the program has no function @main to run

gpu.module @lib {
  gpu.func @scale(%out: memref<?xf32>, %k: f32) kernel {
    %i = gpu.thread_id x
    %v = memref.load %out[%i] : memref<?xf32>
    %w = arith.mulf %v, %k : f32
    memref.store %w, %out[%i] : memref<?xf32>
    gpu.return
  }
}

func.func @fill(%x: f32, %buf: memref<?xf32>) {
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  %n = memref.dim %buf, %c0 : memref<?xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %n, %sy = %c1, %sz = %c1) {
    memref.store %x, %buf[%tx] : memref<?xf32>
    gpu.terminator
  }
  return
}
