// Each gpuir stream is a chain of async tokens: an op on a stream depends on the stream's last
// token and gives the next one; gpu.stream_sync waits for the stream's last token. Memory
// tokens vanish (a pointer to one i32 is a 0-d memref). The round trip prints 5 + 5.
// RUN: gpu-opt %S/../../../../examples/manual-streams.mlir -t mlir-upstream | filecheck %s
// RUN: gpu-opt %S/../../../../examples/manual-streams.mlir -t mlir-upstream | gpu-run - --provider interp 5 | filecheck %s --check-prefix=OUT
// RUN: gpu-opt %S/../../../../examples/manual-streams.mlir -t mlir-upstream | gpu-run - --provider cpu 5 | filecheck %s --check-prefix=OUT

// CHECK:      func.func @main(%x: i32) -> (i32) {
// CHECK-NEXT:   %ptr1 = memref.alloc() : memref<i32>
// CHECK-NEXT:   %ptr2 = memref.alloc() : memref<i32>
// CHECK-NEXT:   memref.store %x, %ptr1[] : memref<i32>
// CHECK-NEXT:   memref.store %x, %ptr2[] : memref<i32>
// CHECK-NEXT:   %[[A0:.*]] = gpu.wait async
// CHECK-NEXT:   %dev1, %[[A1:.*]] = gpu.alloc async [%[[A0]]] () : memref<i32>
// CHECK-NEXT:   %[[A2:.*]] = gpu.memcpy async [%[[A1]]] %dev1, %ptr1 : memref<i32>, memref<i32>
// CHECK-NEXT:   %[[B0:.*]] = gpu.wait async
// CHECK-NEXT:   %dev2, %[[B1:.*]] = gpu.alloc async [%[[B0]]] () : memref<i32>
// CHECK-NEXT:   %[[B2:.*]] = gpu.memcpy async [%[[B1]]] %dev2, %ptr2 : memref<i32>, memref<i32>
// CHECK:        %[[A3:.*]] = gpu.launch_func async [%[[A2]]] @device::@kernel
// CHECK:        %[[B3:.*]] = gpu.launch_func async [%[[B2]]] @device::@kernel
// CHECK-NEXT:   %[[A4:.*]] = gpu.memcpy async [%[[A3]]] %ptr1, %dev1
// CHECK-NEXT:   %[[B4:.*]] = gpu.memcpy async [%[[B3]]] %ptr2, %dev2
// CHECK-NEXT:   %[[A5:.*]] = gpu.dealloc async [%[[A4]]] %dev1 : memref<i32>
// CHECK-NEXT:   %[[B5:.*]] = gpu.dealloc async [%[[B4]]] %dev2 : memref<i32>
// CHECK-NEXT:   gpu.wait [%[[A5]]]
// CHECK-NEXT:   gpu.wait [%[[B5]]]
// CHECK-NEXT:   %val1 = memref.load %ptr1[] : memref<i32>
// CHECK-NOT:    !mem.

// OUT: {{^}}84{{$}}
