// memref.copy on the host (whole memrefs, out of and into views, dynamic extents; the
// numbers as mlir-runner-22 prints them for the host part), gpu.memcpy within the host, and a
// kernel's memref.copy of device memory out of a view. Element (i, j) of %a is 10 i + j.
// RUN: gpu-run %s --provider interp | filecheck %s
// RUN: gpu-run %s --provider cpu | filecheck %s
// RUN: gpu-run %s --provider cpu --check | filecheck %s

// CHECK:      0, 1, 2, 3
// CHECK-NEXT: 10, 11, 12, 13
// CHECK-NEXT: 20, 21, 22, 23
// a[1..2, 1 and 3]:
// CHECK-NEXT: 11, 13, 21, 23
// that plus 100 on its diagonal's first element, copied into b's columns 0 and 2 of rows 0, 1:
// CHECK-NEXT: 111, 1, 13, 3
// CHECK-NEXT: 21, 11, 23, 13
// CHECK-NEXT: 20, 21, 22, 23
// CHECK-NEXT: 4
// 0..4 through gpu.memcpy and the kernel's copy of elements 1..4:
// CHECK-NEXT: 1, 2, 3, 4,

module attributes {gpu.container_module} {

  gpu.module @kernels {
    // thread 0 copies the 4 elements from %src[1..] to %dst; the others wait at the barrier
    gpu.func @shift(%src: memref<5xf32>, %dst: memref<4xf32>) kernel {
      %tx = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %first = arith.cmpi eq, %tx, %c0 : index
      %v = memref.subview %src[1][4][1] : memref<5xf32> to memref<4xf32, strided<[1], offset: 1>>
      scf.if %first {
        memref.copy %v, %dst : memref<4xf32, strided<[1], offset: 1>> to memref<4xf32>
      }
      gpu.barrier
      gpu.return
    }
  }
  func.func private @printF32(f32)
  func.func private @printNewline()
  func.func private @printComma()
  func.func @show(%m: memref<3x4xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %c3b = arith.constant 3 : index
    scf.for %i = %c0 to %c3 step %c1 {
      scf.for %j = %c0 to %c4 step %c1 {
        %e = memref.load %m[%i, %j] : memref<3x4xf32>
        func.call @printF32(%e) : (f32) -> ()
        %last = arith.cmpi eq, %j, %c3b : index
        scf.if %last {
          func.call @printNewline() : () -> ()
        } else {
          func.call @printComma() : () -> ()
        }
      }
    }
    return
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %a = memref.alloc() : memref<3x4xf32>
    scf.for %i = %c0 to %c3 step %c1 {
      scf.for %j = %c0 to %c4 step %c1 {
        %ii = arith.index_cast %i : index to i32
        %jj = arith.index_cast %j : index to i32
        %c10 = arith.constant 10 : i32
        %t = arith.muli %ii, %c10 : i32
        %v = arith.addi %t, %jj : i32
        %f = arith.sitofp %v : i32 to f32
        memref.store %f, %a[%i, %j] : memref<3x4xf32>
      }
    }
    // a whole copy
    %b = memref.alloc() : memref<3x4xf32>
    memref.copy %a, %b : memref<3x4xf32> to memref<3x4xf32>
    func.call @show(%b) : (memref<3x4xf32>) -> ()
    // a view copied out: a[1..2, 1..3 step 2] into a 2x2
    %v = memref.subview %a[1, 1][2, 2][1, 2] : memref<3x4xf32> to memref<2x2xf32, strided<[4, 2], offset: 5>>
    %c = memref.alloc() : memref<2x2xf32>
    memref.copy %v, %c : memref<2x2xf32, strided<[4, 2], offset: 5>> to memref<2x2xf32>
    %c00 = memref.load %c[%c0, %c0] : memref<2x2xf32>
    %c01 = memref.load %c[%c0, %c1] : memref<2x2xf32>
    %c10 = memref.load %c[%c1, %c0] : memref<2x2xf32>
    %c11 = memref.load %c[%c1, %c1] : memref<2x2xf32>
    func.call @printF32(%c00) : (f32) -> ()
    func.call @printComma() : () -> ()
    func.call @printF32(%c01) : (f32) -> ()
    func.call @printComma() : () -> ()
    func.call @printF32(%c10) : (f32) -> ()
    func.call @printComma() : () -> ()
    func.call @printF32(%c11) : (f32) -> ()
    func.call @printNewline() : () -> ()
    // into a view: the 2x2 plus 100 written over b's column 0 and 2 of rows 0..1
    %hundred = arith.constant 100.0 : f32
    scf.for %i = %c0 to %c1 step %c1 {
      %x = memref.load %c[%i, %i] : memref<2x2xf32>
      %y = arith.addf %x, %hundred : f32
      memref.store %y, %c[%i, %i] : memref<2x2xf32>
    }
    %w = memref.subview %b[0, 0][2, 2][1, 2] : memref<3x4xf32> to memref<2x2xf32, strided<[4, 2]>>
    memref.copy %c, %w : memref<2x2xf32> to memref<2x2xf32, strided<[4, 2]>>
    func.call @show(%b) : (memref<3x4xf32>) -> ()
    // dynamic extents
    %n = arith.constant 5 : index
    %p = memref.alloc(%n) : memref<?xf32>
    %q = memref.alloc(%n) : memref<?xf32>
    scf.for %i = %c0 to %n step %c1 {
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f32
      memref.store %f, %p[%i] : memref<?xf32>
    }
    memref.copy %p, %q : memref<?xf32> to memref<?xf32>
    %c5 = arith.constant 4 : index
    %q4 = memref.load %q[%c5] : memref<?xf32>
    func.call @printF32(%q4) : (f32) -> ()
    func.call @printNewline() : () -> ()
    // gpu.memcpy within the host, then a kernel's memref.copy of device memory
    %h5 = memref.alloc() : memref<5xf32>
    %p5 = memref.cast %p : memref<?xf32> to memref<5xf32>
    gpu.memcpy %h5, %p5 : memref<5xf32>, memref<5xf32>
    %d5 = gpu.alloc() : memref<5xf32>
    %d4 = gpu.alloc() : memref<4xf32>
    gpu.memcpy %d5, %h5 : memref<5xf32>, memref<5xf32>
    %c32 = arith.constant 32 : index
    gpu.launch_func @kernels::@shift blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%d5 : memref<5xf32>, %d4 : memref<4xf32>)
    %h4 = memref.alloc() : memref<4xf32>
    gpu.memcpy %h4, %d4 : memref<4xf32>, memref<4xf32>
    scf.for %i = %c0 to %c4 step %c1 {
      %e = memref.load %h4[%i] : memref<4xf32>
      func.call @printF32(%e) : (f32) -> ()
      func.call @printComma() : () -> ()
    }
    func.call @printNewline() : () -> ()
    memref.dealloc %a : memref<3x4xf32>
    memref.dealloc %b : memref<3x4xf32>
    memref.dealloc %c : memref<2x2xf32>
    memref.dealloc %p : memref<?xf32>
    memref.dealloc %q : memref<?xf32>
    return
  }
}
