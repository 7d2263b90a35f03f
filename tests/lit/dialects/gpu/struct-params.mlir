// RUN: ROUNDTRIP
// RUN: GENERIC_ROUNDTRIP

// A struct kernel argument: the host builds it with llvm.mlir.undef + llvm.insertvalue, the
// launch passes it by value, the kernel reads its fields with llvm.extractvalue. Fields may be
// integers, index, floats, global pointers and nested structs.

!p = !llvm.struct<(f32, index, !mem.ptr<!mem.array<? x f32>, 1>, !llvm.struct<(i8, f64)>)>

func.func @k(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>, %g: index, %i: index, %p: !p)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
  %x = llvm.extractvalue %p[0] : !p
  %d = llvm.extractvalue %p[3, 1] : !p
  func.return %m1, %m3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}

func.func @main(%m0: !mem.M<0>, %m1: !mem.M<1>, %m4: !mem.M<4>, %x: f32, %n: index,
                %ptr: !mem.ptr<!mem.array<? x f32>, 1>) -> !mem.M<0> {
  %u = llvm.mlir.undef : !p
  %s0 = llvm.insertvalue %x, %u[0] : !p
  %s1 = llvm.insertvalue %n, %s0[1] : !p
  %s2 = llvm.insertvalue %ptr, %s1[2] : !p
  %c = arith.constant 2.5 : f64
  %s3 = llvm.insertvalue %c, %s2[3, 1] : !p
  %s = gpu.default_stream
  %one = arith.constant 1 : index
  %a0, %a1, %a4 = gpu.launch @k grid(%one, %one) stream(%s) mems(%m0, %m1, %m4) args(%s3) : (!p)
  func.return %a0 : !mem.M<0>
}

// CHECK:      %x = llvm.extractvalue %p[0] : !llvm.struct<(f32, index, !mem.ptr<!mem.array<? x f32>, 1>, !llvm.struct<(i8, f64)>)>
// CHECK-NEXT: %d = llvm.extractvalue %p[3, 1] : !llvm.struct<(f32, index, !mem.ptr<!mem.array<? x f32>, 1>, !llvm.struct<(i8, f64)>)>
// CHECK:      %u = llvm.mlir.undef : !llvm.struct<(f32, index, !mem.ptr<!mem.array<? x f32>, 1>, !llvm.struct<(i8, f64)>)>
// CHECK-NEXT: %s0 = llvm.insertvalue %x, %u[0] : !llvm.struct<(f32, index, !mem.ptr<!mem.array<? x f32>, 1>, !llvm.struct<(i8, f64)>)>
// CHECK:      %s3 = llvm.insertvalue %c, %s2[3, 1] : !llvm.struct<(f32, index, !mem.ptr<!mem.array<? x f32>, 1>, !llvm.struct<(i8, f64)>)>
// CHECK:      %a0, %a1, %a4 = gpu.launch @k grid(%one, %one) stream(%s) mems(%m0, %m1, %m4) args(%s3) : (!llvm.struct<(f32, index, !mem.ptr<!mem.array<? x f32>, 1>, !llvm.struct<(i8, f64)>)>)

// CHECK-GENERIC: "llvm.extractvalue"(%p) <{position = array<i64: 3, 1>}> : (!llvm.struct<(f32, index, !mem.ptr<!mem.array<? x f32>, 1>, !llvm.struct<(i8, f64)>)>) -> f64
// CHECK-GENERIC: "gpu.launch"(%one, %one, %s, %m0, %m1, %m4, %s3) <{kernel = @k, operandSegmentSizes = array<i32: 1, 1, 1, 0, 1, 1, 1, 1>}> : (index, index, !gpu.stream, !mem.M<0>, !mem.M<1>, !mem.M<4>, !llvm.struct<(f32, index, !mem.ptr<!mem.array<? x f32>, 1>, !llvm.struct<(i8, f64)>)>) -> (!mem.M<0>, !mem.M<1>, !mem.M<4>)
