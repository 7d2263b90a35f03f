// A gpu.func whose parameters and attributions carry attributes, as MLIR writes them
// (`--test-gpu-memory-promotion` reads `{gpu.test_promote_workgroup}` and leaves it there;
// `{llvm.noalias}`, `{llvm.align = 16}` come from the NVVM conventions). The import reads and
// drops them. Each thread doubles element t + 4 through a workgroup copy: b[i] = 2 a[i + 4]
// with a[i] = i, so [8, 10, 12, 14].
// RUN: gpu-run %s --provider interp | filecheck %s
// RUN: gpu-run %s --provider cpu | filecheck %s

// CHECK:      sizes = [4] strides = [1] data =
// CHECK-NEXT: [8,  10,  12,  14]

module attributes {gpu.container_module} {
  func.func private @printMemrefI32(memref<*xi32>)
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %a = memref.alloc() : memref<8xi32>
    %b = memref.alloc() : memref<4xi32>
    scf.for %i = %c0 to %c8 step %c1 {
      %v = arith.index_cast %i : index to i32
      memref.store %v, %a[%i] : memref<8xi32>
    }
    %ha = memref.cast %a : memref<8xi32> to memref<*xi32>
    %hb = memref.cast %b : memref<4xi32> to memref<*xi32>
    gpu.host_register %ha : memref<*xi32>
    gpu.host_register %hb : memref<*xi32>
    gpu.launch_func @kernels::@twice blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1)
        args(%a : memref<8xi32>, %b : memref<4xi32>, %c4 : index)
    call @printMemrefI32(%hb) : (memref<*xi32>) -> ()
    return
  }
  gpu.module @kernels {
    gpu.func @twice(%a: memref<8xi32> {gpu.test_promote_workgroup, llvm.noalias},
                    %b: memref<4xi32> {llvm.align = 16 : i64}, %off: index)
        workgroup(%w: memref<4xi32, #gpu.address_space<workgroup>> {llvm.align = 8 : i64}) kernel {
      %t = gpu.thread_id x
      %i = arith.addi %t, %off : index
      %v = memref.load %a[%i] : memref<8xi32>
      %d = arith.addi %v, %v : i32
      memref.store %d, %w[%t] : memref<4xi32, #gpu.address_space<workgroup>>
      gpu.barrier
      %r = memref.load %w[%t] : memref<4xi32, #gpu.address_space<workgroup>>
      memref.store %r, %b[%t] : memref<4xi32>
      gpu.return
    }
  }
}
