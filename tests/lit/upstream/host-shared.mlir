// gpu.alloc host_shared: memory both the host and kernels use (a host allocation with a device
// copy, as host_register makes), and vector.print of scalars, as mlir-runner prints them.
// RUN: gpu-run %s --provider interp | filecheck %s
// RUN: gpu-run %s --provider cpu | filecheck %s

// CHECK:      2000
// CHECK-NEXT: 2.5
// CHECK-NEXT: 1
// CHECK-NEXT: 0
// CHECK-NEXT: 7
// CHECK-NEXT: -3
// CHECK-EMPTY:

module attributes {gpu.container_module} {
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c1000 = arith.constant 1000 : i32
    %m = gpu.alloc host_shared () : memref<1xi32>
    memref.store %c1000, %m[%c0] : memref<1xi32>
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
      %v = memref.load %m[%c0] : memref<1xi32>
      %w = arith.addi %v, %v : i32
      memref.store %w, %m[%c0] : memref<1xi32>
      gpu.terminator
    }
    %r = memref.load %m[%c0] : memref<1xi32>
    vector.print %r : i32
    %f = arith.constant 2.5 : f32
    vector.print %f : f32
    %t = arith.constant true
    vector.print %t : i1
    %n = arith.constant false
    vector.print %n : i1
    %c7 = arith.constant 7 : index
    vector.print %c7 : index
    %neg = arith.constant -3 : i64
    vector.print %neg : i64
    return
  }
}
