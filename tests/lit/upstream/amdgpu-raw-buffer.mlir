// amdgpu.raw_buffer_load / raw_buffer_store and the raw buffer atomics, imported as gpuir's
// element accesses: in bounds, partly out of bounds with boundsCheck (lanes past the memref
// read 0, their stores and atomics do nothing), indexOffset and sgprOffset, and a 2-d memref
// that a vector crosses a row of (the buffer is the memref's memory, row-major).
// RUN: gpu-run %s --provider interp | filecheck %s
// RUN: gpu-run %s --provider cpu | filecheck %s
// RUN: gpu-opt %s | filecheck %s --check-prefix=IMPORTED

// a[i] = i + 1 (6 elements: 1..6); b starts as 8 zeros:
//   load vector<4xf32> at 4 (checked): a[4], a[5], then 2 lanes past 6: 5, 6, 0, 0 -> b[0..3]
//   load f32 at 1 with indexOffset 2: a[1 + 2] = 4 -> b[4]
//   load f32 at 0 with sgprOffset 2: a[0 + 2] = 3 -> b[5]
//   atomic_fadd 1.5 at b[6] = 0 + 1.5; the same at b[8] (past 8, checked): nothing
//   store vector<2xf32> (7, 8) at b[7] (checked): b[7] = 7, the 8 (at 8) dropped
// CHECK:      rank = 1 offset = 0 sizes = [8] strides = [1] data =
// CHECK-NEXT: {{^}}[5,  6,  0,  0,  4,  3,  1.5,  7]

// m[r][c] = 10 r + c (2x3: 0 1 2 / 10 11 12), its elements in memory 0 1 2 10 11 12;
// n starts as 8 times -1:
//   load vector<3xi32> at [0, 2] (element 2, on across the row): 2, 10, 11 -> n[0..2]
//   load vector<2xi32> at [1, 2] (element 5, then 6 = past the 6 elements): 12, 0 -> n[3..4]
//   store vector<2xi32> (100, 200) at [1, 2]: m[1][2] = 100, the 200 dropped
//   atomic_smax -5 at n[0]: max(2, -5) = 2; atomic_smax 20 at n[5]: max(-1, 20) = 20
//   atomic_umin 7 at n[1]: umin(10, 7) = 7
//   atomic_cmpswap 9 if 11 at n[2]: n[2] was 11, so 9, its old 11 -> n[6]
//   atomic_cmpswap at n[8] (past 8, checked): nothing, its old 0 -> n[7]
// CHECK:      rank = 2 offset = 0 sizes = [2, 3] strides = [3, 1] data =
// CHECK-NEXT: {{^}}{{\[\[}}0,   1,   2],
// CHECK-NEXT: {{^}} [10,   11,   100{{\]\]}}
// CHECK:      rank = 1 offset = 0 sizes = [8] strides = [1] data =
// CHECK-NEXT: {{^}}[2,  7,  9,  12,  0,  20,  11,  0]

// IMPORTED-NOT: amdgpu

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c6 = arith.constant 6 : index
  %c8 = arith.constant 8 : index
  %f0 = arith.constant 0.0 : f32
  %f1 = arith.constant 1.0 : f32
  %m1 = arith.constant -1 : i32
  %c10 = arith.constant 10 : i32
  %a = memref.alloc() : memref<6xf32>
  %b = memref.alloc() : memref<8xf32>
  %m = memref.alloc() : memref<2x3xi32>
  %n = memref.alloc() : memref<8xi32>
  scf.for %i = %c0 to %c6 step %c1 {
    %i32 = arith.index_cast %i : index to i32
    %f = arith.sitofp %i32 : i32 to f32
    %g = arith.addf %f, %f1 : f32
    memref.store %g, %a[%i] : memref<6xf32>
  }
  scf.for %i = %c0 to %c8 step %c1 {
    memref.store %f0, %b[%i] : memref<8xf32>
    memref.store %m1, %n[%i] : memref<8xi32>
  }
  scf.for %r = %c0 to %c2 step %c1 {
    scf.for %c = %c0 to %c3 step %c1 {
      %r32 = arith.index_cast %r : index to i32
      %c32 = arith.index_cast %c : index to i32
      %t = arith.muli %r32, %c10 : i32
      %v = arith.addi %t, %c32 : i32
      memref.store %v, %m[%r, %c] : memref<2x3xi32>
    }
  }
  %ua = memref.cast %a : memref<6xf32> to memref<*xf32>
  %ub = memref.cast %b : memref<8xf32> to memref<*xf32>
  %um = memref.cast %m : memref<2x3xi32> to memref<*xi32>
  %un = memref.cast %n : memref<8xi32> to memref<*xi32>
  gpu.host_register %ua : memref<*xf32>
  gpu.host_register %ub : memref<*xf32>
  gpu.host_register %um : memref<*xi32>
  gpu.host_register %un : memref<*xi32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %i0 = arith.constant 0 : i32
    %i1 = arith.constant 1 : i32
    %i2 = arith.constant 2 : i32
    %i3 = arith.constant 3 : i32
    %i4 = arith.constant 4 : i32
    %i5 = arith.constant 5 : i32
    %i6 = arith.constant 6 : i32
    %i7 = arith.constant 7 : i32
    %i8 = arith.constant 8 : i32
    %v4 = amdgpu.raw_buffer_load {boundsCheck = true} %a[%i4] : memref<6xf32>, i32 -> vector<4xf32>
    amdgpu.raw_buffer_store {boundsCheck = false} %v4 -> %b[%i0] : vector<4xf32> -> memref<8xf32>, i32
    %x = amdgpu.raw_buffer_load {indexOffset = 2 : i32} %a[%i1] : memref<6xf32>, i32 -> f32
    amdgpu.raw_buffer_store %x -> %b[%i4] : f32 -> memref<8xf32>, i32
    %y = amdgpu.raw_buffer_load %a[%i0] sgprOffset %i2 : memref<6xf32>, i32 -> f32
    amdgpu.raw_buffer_store %y -> %b[%i5] : f32 -> memref<8xf32>, i32
    %h = arith.constant 1.5 : f32
    amdgpu.raw_buffer_atomic_fadd %h -> %b[%i6] : f32 -> memref<8xf32>, i32
    amdgpu.raw_buffer_atomic_fadd {boundsCheck = true} %h -> %b[%i8] : f32 -> memref<8xf32>, i32
    %w = arith.constant dense<[7.0, 8.0]> : vector<2xf32>
    amdgpu.raw_buffer_store %w -> %b[%i7] : vector<2xf32> -> memref<8xf32>, i32

    %r3 = amdgpu.raw_buffer_load %m[%i0, %i2] : memref<2x3xi32>, i32, i32 -> vector<3xi32>
    amdgpu.raw_buffer_store {boundsCheck = false} %r3 -> %n[%i0] : vector<3xi32> -> memref<8xi32>, i32
    %r2 = amdgpu.raw_buffer_load {boundsCheck = true} %m[%i1, %i2] : memref<2x3xi32>, i32, i32 -> vector<2xi32>
    amdgpu.raw_buffer_store %r2 -> %n[%i3] : vector<2xi32> -> memref<8xi32>, i32
    %s2 = arith.constant dense<[100, 200]> : vector<2xi32>
    amdgpu.raw_buffer_store %s2 -> %m[%i1, %i2] : vector<2xi32> -> memref<2x3xi32>, i32, i32
    %m5 = arith.constant -5 : i32
    %p20 = arith.constant 20 : i32
    %p9 = arith.constant 9 : i32
    %p11 = arith.constant 11 : i32
    amdgpu.raw_buffer_atomic_smax %m5 -> %n[%i0] : i32 -> memref<8xi32>, i32
    amdgpu.raw_buffer_atomic_smax %p20 -> %n[%i5] : i32 -> memref<8xi32>, i32
    amdgpu.raw_buffer_atomic_umin %i7 -> %n[%i1] : i32 -> memref<8xi32>, i32
    %old = amdgpu.raw_buffer_atomic_cmpswap %p9, %p11 -> %n[%i2] : i32 -> memref<8xi32>, i32
    amdgpu.raw_buffer_store %old -> %n[%i6] : i32 -> memref<8xi32>, i32
    %none = amdgpu.raw_buffer_atomic_cmpswap %p9, %p11 -> %n[%i8] : i32 -> memref<8xi32>, i32
    amdgpu.raw_buffer_store %none -> %n[%i7] : i32 -> memref<8xi32>, i32
    gpu.terminator
  }
  call @printMemrefF32(%ub) : (memref<*xf32>) -> ()
  call @printMemrefI32(%um) : (memref<*xi32>) -> ()
  call @printMemrefI32(%un) : (memref<*xi32>) -> ()
  return
}

func.func private @printMemrefF32(memref<*xf32>)
func.func private @printMemrefI32(memref<*xi32>)
