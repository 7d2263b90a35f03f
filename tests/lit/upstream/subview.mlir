// memref.subview on the host and in a kernel: views of views (offsets and strides composed,
// static and dynamic), loads, stores and memref.dim through them. Element (i, j) of the 8x8
// host memref is 10 i + j.
// RUN: gpu-run %s --provider interp | filecheck %s
// RUN: gpu-run %s --provider cpu | filecheck %s
// RUN: gpu-run %s --provider cpu --check | filecheck %s

// The view v = a[2 + r, 1 + 2 c] (4x3), and w = v[1 + 2 r, 1 + c] (2x2) = a[3 + 2 r, 3 + 2 c]:
// CHECK:      33
// CHECK-NEXT: 55
// CHECK-NEXT: 2
// 99 stored through w[0, 0], read back as a[3, 3]:
// CHECK-NEXT: 99
// The kernel: each of 3x2 threads stores 100 + its id into the view d[1 + 2 ty, 2 + tx] of
// an 8x8 device memref of zeros, copied back:
// CHECK-NEXT: 0, 0, 0, 0, 0, 0, 0, 0
// CHECK-NEXT: 0, 0, 100, 101, 0, 0, 0, 0
// CHECK-NEXT: 0, 0, 0, 0, 0, 0, 0, 0
// CHECK-NEXT: 0, 0, 102, 103, 0, 0, 0, 0
// CHECK-NEXT: 0, 0, 0, 0, 0, 0, 0, 0
// CHECK-NEXT: 0, 0, 104, 105, 0, 0, 0, 0

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @mark(%d: memref<8x8xf32>, %top: index) kernel {
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %c2 = arith.constant 2 : index
      %view = memref.subview %d[%top, 2][3, 2][2, 1] : memref<8x8xf32> to memref<3x2xf32, strided<[16, 1], offset: ?>>
      %row = arith.muli %ty, %c2 : index
      %id = arith.addi %row, %tx : index
      %i = arith.index_cast %id : index to i32
      %c100 = arith.constant 100 : i32
      %v = arith.addi %i, %c100 : i32
      %f = arith.sitofp %v : i32 to f32
      memref.store %f, %view[%ty, %tx] : memref<3x2xf32, strided<[16, 1], offset: ?>>
      gpu.return
    }
  }
  func.func private @printF32(f32)
  func.func private @printI64(i64)
  func.func private @printNewline()
  func.func private @printComma()
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c8 = arith.constant 8 : index
    %a = memref.alloc() : memref<8x8xf32>
    scf.for %i = %c0 to %c8 step %c1 {
      scf.for %j = %c0 to %c8 step %c1 {
        %ii = arith.index_cast %i : index to i32
        %jj = arith.index_cast %j : index to i32
        %c10 = arith.constant 10 : i32
        %t = arith.muli %ii, %c10 : i32
        %v = arith.addi %t, %jj : i32
        %f = arith.sitofp %v : i32 to f32
        memref.store %f, %a[%i, %j] : memref<8x8xf32>
      }
    }
    %v = memref.subview %a[2, %c1][4, 3][1, 2] : memref<8x8xf32> to memref<4x3xf32, strided<[8, 2], offset: ?>>
    %w = memref.subview %v[1, 1][2, 2][2, 1] : memref<4x3xf32, strided<[8, 2], offset: ?>> to memref<2x2xf32, strided<[16, 2], offset: ?>>
    %x = memref.load %v[%c1, %c1] : memref<4x3xf32, strided<[8, 2], offset: ?>>
    %y = memref.load %w[%c1, %c1] : memref<2x2xf32, strided<[16, 2], offset: ?>>
    %d = memref.dim %w, %c0 : memref<2x2xf32, strided<[16, 2], offset: ?>>
    %c99 = arith.constant 99.0 : f32
    memref.store %c99, %w[%c0, %c0] : memref<2x2xf32, strided<[16, 2], offset: ?>>
    %z = memref.load %a[%c3, %c3] : memref<8x8xf32>
    func.call @printF32(%x) : (f32) -> ()
    func.call @printNewline() : () -> ()
    func.call @printF32(%y) : (f32) -> ()
    func.call @printNewline() : () -> ()
    %di = arith.index_cast %d : index to i64
    func.call @printI64(%di) : (i64) -> ()
    func.call @printNewline() : () -> ()
    func.call @printF32(%z) : (f32) -> ()
    func.call @printNewline() : () -> ()
    %zeros = memref.alloc() : memref<8x8xf32>
    %zero = arith.constant 0.0 : f32
    scf.for %i = %c0 to %c8 step %c1 {
      scf.for %j = %c0 to %c8 step %c1 {
        memref.store %zero, %zeros[%i, %j] : memref<8x8xf32>
      }
    }
    %dev = gpu.alloc() : memref<8x8xf32>
    gpu.memcpy %dev, %zeros : memref<8x8xf32>, memref<8x8xf32>
    %c2 = arith.constant 2 : index
    gpu.launch_func @kernels::@mark blocks in (%c1, %c1, %c1) threads in (%c2, %c3, %c1) args(%dev : memref<8x8xf32>, %c1 : index)
    gpu.memcpy %zeros, %dev : memref<8x8xf32>, memref<8x8xf32>
    %c6 = arith.constant 6 : index
    %c7 = arith.constant 7 : index
    scf.for %i = %c0 to %c6 step %c1 {
      scf.for %j = %c0 to %c8 step %c1 {
        %e = memref.load %zeros[%i, %j] : memref<8x8xf32>
        func.call @printF32(%e) : (f32) -> ()
        %last = arith.cmpi eq, %j, %c7 : index
        scf.if %last {
          func.call @printNewline() : () -> ()
        } else {
          func.call @printComma() : () -> ()
        }
      }
    }
    return
  }
}
