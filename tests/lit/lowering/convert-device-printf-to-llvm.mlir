// convert-device-printf-to-llvm: each printf of device code claims a record in the print buffer
// with one atomic add on the cursor, and stores its header and values there (or in the spill
// when it does not fit); the module gets the buffer's globals and its formats by id.
// RUN: gpu-opt %s -p convert-device-printf-to-llvm | filecheck %s
// RUN: gpu-opt %s -p convert-device-printf-to-llvm | gpu-opt | filecheck %s
// RUN: gpu-opt %s -p convert-device-printf-to-llvm --mlir-pass-statistics -o /dev/null 2>&1 | filecheck %s --check-prefix=STATS

// The statistics of the whole file: the two printf ops below.
// STATS:      {{^}}ConvertDevicePrintfToLlvm
// STATS-NEXT:   (S) 2 num-printf-lowered - Number of printf ops made print-buffer records

// CHECK:      builtin.module attributes {gpu.device, gpu.print_formats = [["x = {}, n = {}\0A", "format", [f32, i16]], ["{}", "int", [i32]]]} {
// CHECK-NEXT:   llvm.mlir.global external @__gpuir_print_buffer(0 : i64) {{.*}} : i64
// CHECK-NEXT:   llvm.mlir.global external @__gpuir_print_capacity(0 : i64) {{.*}} : i64
// CHECK-NEXT:   llvm.mlir.global external @__gpuir_print_cursor(0 : i64) {{.*}} : i64
// CHECK-NEXT:   llvm.mlir.global internal @__gpuir_print_spill() {{.*}} : !llvm.array<65 x i64>
// CHECK:        %[[X:.*]] = llvm.fpext %{{.*}} : f32 to f64
// CHECK:        %[[N:.*]] = llvm.sext %{{.*}} : i16 to i64
// CHECK:        %[[SIZE:.*]] = llvm.mlir.constant(24) : i64
// CHECK:        %[[CURSOR:.*]] = llvm.mlir.addressof @__gpuir_print_cursor : !llvm.ptr
// CHECK-NEXT:   %[[OLD:.*]] = llvm.atomicrmw add %[[CURSOR]], %[[SIZE]] monotonic : !llvm.ptr, i64
// CHECK:        %[[END:.*]] = llvm.add %[[OLD]], %[[SIZE]] : i64
// CHECK-NEXT:   %[[FITS:.*]] = llvm.icmp "ule" %[[END]], %{{.*}} : i64
// CHECK:        %[[CLAIMED:.*]] = llvm.getelementptr %{{.*}}[%[[OLD]]] : (!llvm.ptr, i64) -> !llvm.ptr, i8
// CHECK-NEXT:   %[[SPILL:.*]] = llvm.mlir.addressof @__gpuir_print_spill : !llvm.ptr
// CHECK-NEXT:   %[[RECORD:.*]] = llvm.select %[[FITS]], %[[CLAIMED]], %[[SPILL]] : i1, !llvm.ptr
// CHECK-NEXT:   %[[HEADER:.*]] = llvm.mlir.constant(4294967298) : i64
// CHECK-NEXT:   llvm.store %[[HEADER]], %[[RECORD]] {alignment = 8 : i64} : i64, !llvm.ptr
// CHECK-NEXT:   %[[AT1:.*]] = llvm.getelementptr %[[RECORD]][1] : (!llvm.ptr) -> !llvm.ptr, i64
// CHECK-NEXT:   llvm.store %[[X]], %[[AT1]] {alignment = 8 : i64} : f64, !llvm.ptr
// CHECK-NEXT:   %[[AT2:.*]] = llvm.getelementptr %[[RECORD]][2] : (!llvm.ptr) -> !llvm.ptr, i64
// CHECK-NEXT:   llvm.store %[[N]], %[[AT2]] {alignment = 8 : i64} : i64, !llvm.ptr
// CHECK:        llvm.mlir.constant(8589934593) : i64
// CHECK-NOT:    printf.

builtin.module attributes {gpu.device} {
  func.func @k(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
               %group: index, %item: index, %x: f32, %n: i16, %i: i32)
      -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) attributes {gpu.kernel} {
    printf.print_format "x = {}, n = {}\n", %x : f32, %n : i16
    "printf.print_int"(%i) : (i32) -> ()
    func.return %m1, %m3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
  }
}
