// gpu.memcpy from device memory to device memory: through a host copy made for it.
// RUN: gpu-run %s --provider interp | filecheck %s
// RUN: gpu-run %s --provider cpu | filecheck %s
// RUN: gpu-run %s --provider cpu --check | filecheck %s

// CHECK: 0, 1, 2,

module attributes {gpu.container_module} {
  func.func private @printF32(f32)
  func.func private @printComma()
  func.func private @printNewline()
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %h = memref.alloc() : memref<3xf32>
    scf.for %i = %c0 to %c3 step %c1 {
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f32
      memref.store %f, %h[%i] : memref<3xf32>
    }
    %a = gpu.alloc() : memref<3xf32>
    %b = gpu.alloc() : memref<3xf32>
    gpu.memcpy %a, %h : memref<3xf32>, memref<3xf32>
    gpu.memcpy %b, %a : memref<3xf32>, memref<3xf32>
    %g = memref.alloc() : memref<3xf32>
    gpu.memcpy %g, %b : memref<3xf32>, memref<3xf32>
    scf.for %i = %c0 to %c3 step %c1 {
      %e = memref.load %g[%i] : memref<3xf32>
      func.call @printF32(%e) : (f32) -> ()
      func.call @printComma() : () -> ()
    }
    func.call @printNewline() : () -> ()
    return
  }
}
