// gpu.subgroup_reduce of an i32 with every integer kind over a warp (add, minsi, maxsi, minui,
// maxui, and, or, xor: what redux.sync does from sm_80, tests/lit/ptxas/redux.mlir; mul, which
// it does not), and add over clusters of 8 lanes, by 40 work-items: warp 0 has lanes 0..31,
// warp 1 only the 8 lanes of items 32..39. Item i reduces (7i - 100) xor (i << 9); row k of
// the output is kind k, each item's result. The expected values are Python's:
// functools.reduce over each warp's values, wrapped to 32 bits.
// RUN: gpu-run %s --provider interp | filecheck %s
// RUN: gpu-run %s --provider cpu | filecheck %s

// CHECK:      Unranked Memref base@ = {{0x[0-9a-f]+}} rank = 2 offset = 0 sizes = [10, 40] strides = [40, 1] data =
// CHECK-NEXT: {{\[\[}}146704,   146704,   146704,   146704,   146704,   146704,   146704,   146704,   146704,   146704,   146704,   146704,   146704,   146704,   146704,   146704,   146704,   146704,   146704,   146704,   146704,   146704,   146704,   146704,   146704,   146704,   146704,   146704,   146704,   146704,   146704,   146704,   146596,   146596,   146596,   146596,   146596,   146596,   146596,   146596],
// CHECK-NEXT:  [-7170,   -7170,   -7170,   -7170,   -7170,   -7170,   -7170,   -7170,   -7170,   -7170,   -7170,   -7170,   -7170,   -7170,   -7170,   -7170,   -7170,   -7170,   -7170,   -7170,   -7170,   -7170,   -7170,   -7170,   -7170,   -7170,   -7170,   -7170,   -7170,   -7170,   -7170,   -7170,   16508,   16508,   16508,   16508,   16508,   16508,   16508,   16508],
// CHECK-NEXT:  [15989,   15989,   15989,   15989,   15989,   15989,   15989,   15989,   15989,   15989,   15989,   15989,   15989,   15989,   15989,   15989,   15989,   15989,   15989,   15989,   15989,   15989,   15989,   15989,   15989,   15989,   15989,   15989,   15989,   15989,   15989,   15989,   20141,   20141,   20141,   20141,   20141,   20141,   20141,   20141],
// CHECK-NEXT:  [7685,   7685,   7685,   7685,   7685,   7685,   7685,   7685,   7685,   7685,   7685,   7685,   7685,   7685,   7685,   7685,   7685,   7685,   7685,   7685,   7685,   7685,   7685,   7685,   7685,   7685,   7685,   7685,   7685,   7685,   7685,   7685,   16508,   16508,   16508,   16508,   16508,   16508,   16508,   16508],
// CHECK-NEXT:  [-100,   -100,   -100,   -100,   -100,   -100,   -100,   -100,   -100,   -100,   -100,   -100,   -100,   -100,   -100,   -100,   -100,   -100,   -100,   -100,   -100,   -100,   -100,   -100,   -100,   -100,   -100,   -100,   -100,   -100,   -100,   -100,   20141,   20141,   20141,   20141,   20141,   20141,   20141,   20141],
// CHECK-NEXT:  [0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   16384,   16384,   16384,   16384,   16384,   16384,   16384,   16384],
// CHECK-NEXT:  [-1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   20223,   20223,   20223,   20223,   20223,   20223,   20223,   20223],
// CHECK-NEXT:  [-32,   -32,   -32,   -32,   -32,   -32,   -32,   -32,   -32,   -32,   -32,   -32,   -32,   -32,   -32,   -32,   -32,   -32,   -32,   -32,   -32,   -32,   -32,   -32,   -32,   -32,   -32,   -32,   -32,   -32,   -32,   -32,   232,   232,   232,   232,   232,   232,   232,   232],
// CHECK-NEXT:  [-2147483648,   -2147483648,   -2147483648,   -2147483648,   -2147483648,   -2147483648,   -2147483648,   -2147483648,   -2147483648,   -2147483648,   -2147483648,   -2147483648,   -2147483648,   -2147483648,   -2147483648,   -2147483648,   -2147483648,   -2147483648,   -2147483648,   -2147483648,   -2147483648,   -2147483648,   -2147483648,   -2147483648,   -2147483648,   -2147483648,   -2147483648,   -2147483648,   -2147483648,   -2147483648,   -2147483648,   -2147483648,   1778181504,   1778181504,   1778181504,   1778181504,   1778181504,   1778181504,   1778181504,   1778181504],
// CHECK-NEXT:  [-14940,   -14940,   -14940,   -14940,   -14940,   -14940,   -14940,   -14940,   -31900,   -31900,   -31900,   -31900,   -31900,   -31900,   -31900,   -31900,   80164,   80164,   80164,   80164,   80164,   80164,   80164,   80164,   113380,   113380,   113380,   113380,   113380,   113380,   113380,   113380,   146596,   146596,   146596,   146596,   146596,   146596,   146596,   146596]]

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @kinds(%out: memref<10x40xi32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %c4 = arith.constant 4 : index
      %c5 = arith.constant 5 : index
      %c6 = arith.constant 6 : index
      %c7 = arith.constant 7 : index
      %c8 = arith.constant 8 : index
      %c9 = arith.constant 9 : index
      %tx = gpu.thread_id x
      %i = arith.index_cast %tx : index to i32
      %c7_i32 = arith.constant 7 : i32
      %c100_i32 = arith.constant 100 : i32
      %c9_i32 = arith.constant 9 : i32
      %a = arith.muli %i, %c7_i32 : i32
      %b = arith.subi %a, %c100_i32 : i32
      %s = arith.shli %i, %c9_i32 : i32
      %x = arith.xori %b, %s : i32
      %r0 = gpu.subgroup_reduce add %x : (i32) -> i32
      memref.store %r0, %out[%c0, %tx] : memref<10x40xi32>
      %r1 = gpu.subgroup_reduce minsi %x : (i32) -> i32
      memref.store %r1, %out[%c1, %tx] : memref<10x40xi32>
      %r2 = gpu.subgroup_reduce maxsi %x uniform : (i32) -> i32
      memref.store %r2, %out[%c2, %tx] : memref<10x40xi32>
      %r3 = gpu.subgroup_reduce minui %x : (i32) -> i32
      memref.store %r3, %out[%c3, %tx] : memref<10x40xi32>
      %r4 = gpu.subgroup_reduce maxui %x : (i32) -> i32
      memref.store %r4, %out[%c4, %tx] : memref<10x40xi32>
      %r5 = gpu.subgroup_reduce and %x : (i32) -> i32
      memref.store %r5, %out[%c5, %tx] : memref<10x40xi32>
      %r6 = gpu.subgroup_reduce or %x uniform : (i32) -> i32
      memref.store %r6, %out[%c6, %tx] : memref<10x40xi32>
      %r7 = gpu.subgroup_reduce xor %x : (i32) -> i32
      memref.store %r7, %out[%c7, %tx] : memref<10x40xi32>
      %r8 = gpu.subgroup_reduce mul %x : (i32) -> i32
      memref.store %r8, %out[%c8, %tx] : memref<10x40xi32>
      %r9 = gpu.subgroup_reduce add %x cluster(size = 8) : (i32) -> i32
      memref.store %r9, %out[%c9, %tx] : memref<10x40xi32>
      gpu.return
    }
  }
  func.func private @printMemrefI32(memref<*xi32>)
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c40 = arith.constant 40 : index
    %d = gpu.alloc() : memref<10x40xi32>
    gpu.launch_func @kernels::@kinds blocks in (%c1, %c1, %c1) threads in (%c40, %c1, %c1) args(%d : memref<10x40xi32>)
    %h = memref.alloc() : memref<10x40xi32>
    gpu.memcpy %h, %d : memref<10x40xi32>, memref<10x40xi32>
    %u = memref.cast %h : memref<10x40xi32> to memref<*xi32>
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    return
  }
}
