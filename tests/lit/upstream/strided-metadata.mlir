// Strided memrefs as MLIR's --gpu-decompose-memrefs writes them: memref.extract_strided_metadata
// (a memref's base buffer, a memref<f32>, and its offset, sizes and strides; of a subview, the
// subview's in elements of its memory) and memref.reinterpret_cast of a base buffer (rank 0 at a
// position, or 2-D with strides), on the host, in a gpu.launch that captures the metadata, and
// in a gpu.func that takes base buffers, which the import makes at each launch for the memory
// it is given (a 4x3 and a 12-element one here: two kernels).
// a[i][j] = 4 i + j (written through rank-0 casts); v = a[1:3, 1:4] + a[0][0], flattened;
// t = a's transpose, read through strides [1, 4]; u = the same flattened.
// RUN: gpu-run %s --provider interp | filecheck %s
// RUN: gpu-run %s --provider cpu | filecheck %s
// RUN: gpu-opt %s | filecheck %s --check-prefix=IMPORTED

// CHECK:      sizes = [6] strides = [1] data =
// CHECK-NEXT: [5,  6,  7,  9,  10,  11]
// CHECK:      sizes = [4, 3] strides = [3, 1] data =
// CHECK-NEXT: {{\[\[}}0,   4,   8],
// CHECK-NEXT:  [1,   5,   9],
// CHECK-NEXT:  [2,   6,   10],
// CHECK-NEXT:  [3,   7,   11]]
// CHECK:      sizes = [12] strides = [1] data =
// CHECK-NEXT: [0,  4,  8,  1,  5,  9,  2,  6,  10,  3,  7,  11]

// The kernel made for each launch's pointers, before @main: a base buffer is its memory's.
// IMPORTED: func.func @transpose({{.*}} %src: !mem.ptr<!mem.array<? x !mem.array<4 x f32>>, 1>, %src_extent: index, %dst: !mem.ptr<!mem.array<? x !mem.array<3 x f32>>, 1>, %dst_extent: index)
// A position p in a memory of rows of 4 (3): the element (p / 4, p mod 4) (or 3).
// IMPORTED:   %[[P:.*]] = arith.addi
// IMPORTED:   %[[ROW:.*]] = arith.divui %[[P]], %{{.*}} : index
// IMPORTED:   %[[COL:.*]] = arith.remui %[[P]], %{{.*}} : index
// IMPORTED:   %[[AT:.*]] = mem.lea %src, %[[ROW]] : !mem.ptr<!mem.array<? x !mem.array<4 x f32>>, 1>
// IMPORTED:   mem.lea %[[AT]], %[[COL]] : !mem.ptr<!mem.array<4 x f32>, 1>
// IMPORTED:   mem.lea %dst, %{{.*}} : !mem.ptr<!mem.array<? x !mem.array<3 x f32>>, 1>
// IMPORTED: func.func @transpose_1({{.*}} %dst: !mem.ptr<!mem.array<? x f32>, 1>, %dst_extent: index)
// IMPORTED: func.func @main
// IMPORTED:   gpu.launch @transpose grid
// IMPORTED:   gpu.launch @transpose_1 grid

module attributes {gpu.container_module} {
  func.func private @printMemrefF32(memref<*xf32>)
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %c6 = arith.constant 6 : index
    %c12 = arith.constant 12 : index
    %a = memref.alloc() : memref<3x4xf32>
    %v = memref.alloc() : memref<6xf32>
    %t = memref.alloc() : memref<4x3xf32>
    // The metadata of %a (before it is registered, as MLIR places it) and of a subview.
    %base, %off, %sizes:2, %strides:2 = memref.extract_strided_metadata %a
        : memref<3x4xf32> -> memref<f32>, index, index, index, index, index
    %sub = memref.subview %a[1, 1] [2, 3] [1, 1] : memref<3x4xf32> to memref<2x3xf32, strided<[4, 1], offset: 5>>
    %sbase, %soff, %ssizes:2, %sstrides:2 = memref.extract_strided_metadata %sub
        : memref<2x3xf32, strided<[4, 1], offset: 5>> -> memref<f32>, index, index, index, index, index
    // Host code writes a through a rank-0 reinterpret_cast at each position: a[i][j] = 4 i + j.
    scf.for %p = %c0 to %c12 step %c1 {
      %e = memref.reinterpret_cast %base to offset: [%p], sizes: [], strides: []
          : memref<f32> to memref<f32, strided<[], offset: ?>>
      %pi = arith.index_cast %p : index to i32
      %f = arith.sitofp %pi : i32 to f32
      memref.store %f, %e[] : memref<f32, strided<[], offset: ?>>
    }
    %ha = memref.cast %a : memref<3x4xf32> to memref<*xf32>
    %hv = memref.cast %v : memref<6xf32> to memref<*xf32>
    %ht = memref.cast %t : memref<4x3xf32> to memref<*xf32>
    gpu.host_register %ha : memref<*xf32>
    gpu.host_register %hv : memref<*xf32>
    gpu.host_register %ht : memref<*xf32>
    // A gpu.launch: each thread reads the subview's element (b, t) through the subview's
    // metadata and writes v[3 b + t] = that + the base buffer's first element (a[0][0] = 0).
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c3, %sy = %c1, %sz = %c1) {
      %r = arith.muli %bx, %sstrides#0 : index
      %q = arith.addi %soff, %r : index
      %pos = arith.addi %q, %tx : index
      %e = memref.reinterpret_cast %sbase to offset: [%pos], sizes: [], strides: []
          : memref<f32> to memref<f32, strided<[], offset: ?>>
      %x = memref.load %e[] : memref<f32, strided<[], offset: ?>>
      %first = memref.load %base[] : memref<f32>
      %y = arith.addf %x, %first : f32
      %w = arith.muli %bx, %ssizes#1 : index
      %k = arith.addi %w, %tx : index
      memref.store %y, %v[%k] : memref<6xf32>
      gpu.terminator
    }
    // A kernel of gpu.launch_func taking base buffers: a's transpose into t, through a 2-D
    // reinterpret_cast of strides [1, 4]; launched twice, into a 4x3 and a 12-element memory
    // (the kernel is made once for each pair of pointers).
    %u = memref.alloc() : memref<12xf32>
    %hu = memref.cast %u : memref<12xf32> to memref<*xf32>
    gpu.host_register %hu : memref<*xf32>
    %tbase, %toff, %tsizes:2, %tstrides:2 = memref.extract_strided_metadata %t
        : memref<4x3xf32> -> memref<f32>, index, index, index, index, index
    %ubase, %uoff, %usize, %ustride = memref.extract_strided_metadata %u
        : memref<12xf32> -> memref<f32>, index, index, index
    gpu.launch_func @kernels::@transpose blocks in (%c1, %c1, %c1) threads in (%c4, %c3, %c1)
        args(%base : memref<f32>, %tbase : memref<f32>)
    gpu.launch_func @kernels::@transpose blocks in (%c1, %c1, %c1) threads in (%c4, %c3, %c1)
        args(%base : memref<f32>, %ubase : memref<f32>)
    call @printMemrefF32(%hv) : (memref<*xf32>) -> ()
    call @printMemrefF32(%ht) : (memref<*xf32>) -> ()
    call @printMemrefF32(%hu) : (memref<*xf32>) -> ()
    return
  }
  gpu.module @kernels {
    gpu.func @transpose(%src: memref<f32>, %dst: memref<f32>) kernel {
      %i = gpu.thread_id x
      %j = gpu.thread_id y
      %s = memref.reinterpret_cast %src to offset: [0], sizes: [4, 3], strides: [1, 4]
          : memref<f32> to memref<4x3xf32, strided<[1, 4]>>
      %d = memref.reinterpret_cast %dst to offset: [0], sizes: [4, 3], strides: [3, 1]
          : memref<f32> to memref<4x3xf32, strided<[3, 1]>>
      %x = memref.load %s[%i, %j] : memref<4x3xf32, strided<[1, 4]>>
      memref.store %x, %d[%i, %j] : memref<4x3xf32, strided<[3, 1]>>
      gpu.return
    }
  }
}
