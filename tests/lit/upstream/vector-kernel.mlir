// Vectors in a kernel: each of 4 threads loads a vector<4xf32> (vector.load), computes y = x·2 + x
// with vector.fma, stores its lanes' sum (vector.reduction <add>), and writes y back with a
// transfer_write whose mask (vector.create_mask) keeps only 2 lanes in the last thread; the host
// reads the sums back with a transfer_read and prints them. a[i] = i: numpy's
// y = 3·arange(16), b = y with b[14:] = 0, sums = y.reshape(4, 4).sum(1).
// RUN: gpu-run %s --provider interp | filecheck %s
// RUN: gpu-run %s --provider cpu | filecheck %s

// CHECK:      Unranked Memref base@ = {{0x[0-9a-f]+}} rank = 1 offset = 0 sizes = [16] strides = [1] data =
// CHECK-NEXT: {{\[}}0,  3,  6,  9,  12,  15,  18,  21,  24,  27,  30,  33,  36,  39,  0,  0]
// CHECK-NEXT: Unranked Memref base@ = {{0x[0-9a-f]+}} rank = 1 offset = 0 sizes = [4] strides = [1] data =
// CHECK-NEXT: {{\[}}18,  66,  114,  162]
// CHECK-NEXT: ( 18, 66, 114, 162 )

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // Each thread t: x = a[4t .. 4t+4), y = x * 2 + x (fma), its row sum s[t], and
    // b[4t ..] = y where t < 3 (the last thread's vector is masked to its first 2 lanes).
    gpu.func @saxpy(%a: memref<16xf32>, %b: memref<16xf32>, %s: memref<4xf32>) kernel {
      %t = gpu.thread_id x
      %c4 = arith.constant 4 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %i = arith.muli %t, %c4 : index
      %x = vector.load %a[%i] : memref<16xf32>, vector<4xf32>
      %two = arith.constant dense<2.0> : vector<4xf32>
      %y = vector.fma %x, %two, %x : vector<4xf32>
      %sum = vector.reduction <add>, %y : vector<4xf32> into f32
      memref.store %sum, %s[%t] : memref<4xf32>
      %last = arith.cmpi eq, %t, %c3 : index
      %n = arith.select %last, %c2, %c4 : index
      %m = vector.create_mask %n : vector<4xi1>
      vector.transfer_write %y, %b[%i], %m {in_bounds = [true]} : vector<4xf32>, memref<16xf32>
      gpu.return
    }
  }
  func.func private @printMemrefF32(memref<*xf32>)
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    %zero = arith.constant 0.0 : f32
    %a = memref.alloc() : memref<16xf32>
    %b = memref.alloc() : memref<16xf32>
    %s = memref.alloc() : memref<4xf32>
    scf.for %i = %c0 to %c16 step %c1 {
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f32
      memref.store %f, %a[%i] : memref<16xf32>
      memref.store %zero, %b[%i] : memref<16xf32>
    }
    %da = gpu.alloc() : memref<16xf32>
    %db = gpu.alloc() : memref<16xf32>
    %ds = gpu.alloc() : memref<4xf32>
    gpu.memcpy %da, %a : memref<16xf32>, memref<16xf32>
    gpu.memcpy %db, %b : memref<16xf32>, memref<16xf32>
    gpu.launch_func @kernels::@saxpy blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%da : memref<16xf32>, %db : memref<16xf32>, %ds : memref<4xf32>)
    gpu.memcpy %b, %db : memref<16xf32>, memref<16xf32>
    gpu.memcpy %s, %ds : memref<4xf32>, memref<4xf32>
    %hb = memref.cast %b : memref<16xf32> to memref<*xf32>
    %hs = memref.cast %s : memref<4xf32> to memref<*xf32>
    call @printMemrefF32(%hb) : (memref<*xf32>) -> ()
    call @printMemrefF32(%hs) : (memref<*xf32>) -> ()
    %v = vector.transfer_read %s[%c0], %zero : memref<4xf32>, vector<4xf32>
    vector.print %v : vector<4xf32>
    return
  }
}
