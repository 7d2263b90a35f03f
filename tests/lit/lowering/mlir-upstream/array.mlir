// `-t mlir-upstream` writes the whole program as upstream MLIR 22: the kernel as a gpu.func
// in `gpu.module @device` with its #nvvm.target, @main without its memory token, memrefs for
// pointers, and the device memory's ops on async tokens. gpu-run reads it back and prints
// what the original prints.
// RUN: gpu-opt %S/../../../../examples/array.mlir -t mlir-upstream | filecheck %s
// RUN: gpu-opt %S/../../../../examples/array.mlir -t 'mlir-upstream{sm=90}' | filecheck %s --check-prefix=SM90
// RUN: gpu-opt %S/../../../../examples/array.mlir -t mlir-upstream | gpu-run - --provider interp | filecheck %s --check-prefix=OUT
// RUN: gpu-opt %S/../../../../examples/array.mlir -t mlir-upstream | gpu-run - --provider cpu | filecheck %s --check-prefix=OUT

// CHECK:      module attributes {gpu.container_module} {
// CHECK-NEXT:   gpu.module @device [#nvvm.target<O = 3, triple = "nvptx64-nvidia-cuda", chip = "sm_80", features = "+ptx80">] {
// CHECK-NEXT:     gpu.func @array_kernel(%arr: memref<4xi32>) kernel {
// CHECK-NEXT:       %item = gpu.thread_id x
// CHECK:            memref.store %v, %arr[%item] : memref<4xi32>
// CHECK-NEXT:       gpu.return
// CHECK:        func.func @main() -> (i32) {
// CHECK-NEXT:     %host = memref.alloc() : memref<4xi32>
// CHECK-NEXT:     %[[T0:.*]] = gpu.wait async
// CHECK-NEXT:     %dev, %[[T1:.*]] = gpu.alloc async [%[[T0]]] () : memref<4xi32>
// CHECK-NEXT:     gpu.wait [%[[T1]]]
// CHECK:          %[[T2:.*]] = gpu.wait async
// CHECK-NEXT:     %[[T3:.*]] = gpu.launch_func async [%[[T2]]] @device::@array_kernel blocks in (%one, %c1, %c1) threads in (%four, %c1, %c1) args(%dev : memref<4xi32>)
// CHECK-NEXT:     %[[T4:.*]] = gpu.wait async [%[[T3]]]
// CHECK-NEXT:     %[[T5:.*]] = gpu.memcpy async [%[[T4]]] %host, %dev : memref<4xi32>, memref<4xi32>
// CHECK-NEXT:     gpu.wait [%[[T5]]]
// CHECK:          %sum = scf.for %k = %zero to %four step %one iter_args(%acc = %init) -> (i32) {
// CHECK-NEXT:       %x = memref.load %host[%k] : memref<4xi32>
// CHECK:            scf.yield %acc2 : i32
// CHECK-NEXT:     }
// CHECK:          gpu.dealloc async
// CHECK:          memref.dealloc %host : memref<4xi32>
// CHECK-NEXT:     func.return %sum : i32

// SM90: #nvvm.target<O = 3, triple = "nvptx64-nvidia-cuda", chip = "sm_90", features = "+ptx80">

// OUT-NOT: error
// OUT: {{^}}60{{$}}
