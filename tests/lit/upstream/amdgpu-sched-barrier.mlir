// amdgpu.sched_barrier, as MLIR's ROCm tests put it between a kernel's loads and its arithmetic:
// a hint to AMDGPU's instruction scheduler, which orders nothing, so the import makes no op.
// RUN: gpu-run %s --provider interp | filecheck %s
// RUN: gpu-run %s --provider cpu | filecheck %s
// RUN: gpu-opt %s | filecheck %s --check-prefix=IMPORTED

// c[i] = a[i] + b[i] with a[i] = i and b[i] = 10 * i (i = 0..3): 11 * i = 0, 11, 22, 33.
// CHECK:      Unranked Memref base@ = {{0x[0-9a-f]+}} rank = 1 offset = 0 sizes = [4] strides = [1] data =
// CHECK-NEXT: [0,  11,  22,  33]
// CHECK-EMPTY:

// IMPORTED-NOT: amdgpu
// IMPORTED-NOT: sched_barrier

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c10 = arith.constant 10 : i32
  %a = memref.alloc() : memref<4xi32>
  %b = memref.alloc() : memref<4xi32>
  %c = memref.alloc() : memref<4xi32>
  scf.for %i = %c0 to %c4 step %c1 {
    %v = arith.index_cast %i : index to i32
    %w = arith.muli %v, %c10 : i32
    memref.store %v, %a[%i] : memref<4xi32>
    memref.store %w, %b[%i] : memref<4xi32>
  }
  %ua = memref.cast %a : memref<4xi32> to memref<*xi32>
  %ub = memref.cast %b : memref<4xi32> to memref<*xi32>
  %uc = memref.cast %c : memref<4xi32> to memref<*xi32>
  gpu.host_register %ua : memref<*xi32>
  gpu.host_register %ub : memref<*xi32>
  gpu.host_register %uc : memref<*xi32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    %x = memref.load %a[%tx] : memref<4xi32>
    amdgpu.sched_barrier allow = <none>
    %y = memref.load %b[%tx] : memref<4xi32>
    amdgpu.sched_barrier allow = <valu|all_vmem>
    %s = arith.addi %x, %y : i32
    memref.store %s, %c[%tx] : memref<4xi32>
    gpu.terminator
  }
  call @printMemrefI32(%uc) : (memref<*xi32>) -> ()
  return
}

func.func private @printMemrefI32(memref<*xi32>)
