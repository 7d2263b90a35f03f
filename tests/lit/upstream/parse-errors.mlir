// Parse errors of upstream GPU syntax: each says what was expected, at the token.
// RUN: not gpu-opt %s --upstream --split-input-file 2>&1 | filecheck %s

// CHECK:      parse-errors.mlir:[[# @LINE + 5]]:24: error: 'gpu.shuffle' expects xor, up, down or idx, found sideways
// CHECK-NEXT: {{^  %r, %v = gpu.shuffle sideways}}
// CHECK-NEXT: {{^                       \^+$}}
func.func @main() {
  %x = arith.constant 1 : i32
  %r, %v = gpu.shuffle sideways %x, %x, %x : i32
  return
}

// -----

// CHECK:      parse-errors.mlir:[[# @LINE + 4]]:28: error: 'gpu.subgroup_reduce' expects add, mul, minui, minsi, minnumf, maxui, maxsi, maxnumf, and, or, xor, minimumf or maximumf, found plus
// CHECK-NEXT: {{^  %r = gpu.subgroup_reduce plus}}
func.func @main() {
  %x = arith.constant 1 : i32
  %r = gpu.subgroup_reduce plus %x : (i32) -> i32
  return
}

// -----

// CHECK:      parse-errors.mlir:[[# @LINE + 3]]:43: error: 'gpu.subgroup_reduce' expects size or stride, found width
func.func @main() {
  %x = arith.constant 1 : i32
  %r = gpu.subgroup_reduce add %x cluster(width = 4) : (i32) -> i32
  return
}

// -----

// CHECK:      parse-errors.mlir:[[# @LINE + 4]]:26: error: 'gpu.thread_id' expects x, y or z, found w
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k() kernel {
      %t = gpu.thread_id w
      gpu.return
    }
  }
}

// -----

// CHECK:      parse-errors.mlir:[[# @LINE + 3]]:39: error: Expected 'in'
func.func @main() {
  %c1 = arith.constant 1 : index
  gpu.launch_func @kernels::@k blocks (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
  return
}

// -----

// CHECK:      parse-errors.mlir:[[# @LINE + 3]]:32: error: function type expected
func.func @main() {
  %x = arith.constant 1 : i32
  %r = gpu.all_reduce add %x : i32
  return
}
