// RUN: gpu-opt %s -p convert-func-to-llvm | filecheck %s
// RUN: gpu-opt %S/../../../examples/struct-params.mlir -p gpu-pipeline,device-to-llvm | filecheck %s --check-prefix=FULL

// A struct parameter gets its fields' llvm types (index → i64, !mem.ptr<T, a> → !llvm.ptr<a>,
// nested structs too); llvm.mlir.undef / llvm.mlir.zero / llvm.insertvalue / llvm.extractvalue
// on such a struct are rebuilt on the converted one, with casts for the users not converted
// yet. A struct whose fields are llvm types already is left as it is.
builtin.module attributes {gpu.device} {
  func.func private @use(index, !mem.ptr<f32, 1>, index, f32, !llvm.struct<(index, f32)>, !llvm.struct<(index, f32)>)
  func.func @kernel(%p: !llvm.struct<(i32, index, !mem.ptr<f32, 1>, !llvm.struct<(i8, index)>)>, %q: !llvm.struct<(f32, i32)>) attributes {gpu.kernel} {
    %n = llvm.extractvalue %p[1] : !llvm.struct<(i32, index, !mem.ptr<f32, 1>, !llvm.struct<(i8, index)>)>
    %ptr = llvm.extractvalue %p[2] : !llvm.struct<(i32, index, !mem.ptr<f32, 1>, !llvm.struct<(i8, index)>)>
    %m = llvm.extractvalue %p[3, 1] : !llvm.struct<(i32, index, !mem.ptr<f32, 1>, !llvm.struct<(i8, index)>)>
    %x = llvm.extractvalue %q[0] : !llvm.struct<(f32, i32)>
    %u = llvm.mlir.undef : !llvm.struct<(index, f32)>
    %z = llvm.mlir.zero : !llvm.struct<(index, f32)>
    %v = llvm.insertvalue %n, %u[0] : !llvm.struct<(index, f32)>
    func.call @use(%n, %ptr, %m, %x, %v, %z) : (index, !mem.ptr<f32, 1>, index, f32, !llvm.struct<(index, f32)>, !llvm.struct<(index, f32)>) -> ()
    func.return
  }
}

// CHECK:      llvm.func @use(i64, !llvm.ptr<1>, i64, f32, !llvm.struct<(i64, f32)>, !llvm.struct<(i64, f32)>)
// CHECK-NEXT: llvm.func @kernel(%p: !llvm.struct<(i32, i64, !llvm.ptr<1>, !llvm.struct<(i8, i64)>)>, %q: !llvm.struct<(f32, i32)>) attributes {gpu.kernel, nvvm.kernel} {
// CHECK-NEXT:   %p_1 = builtin.unrealized_conversion_cast %p : !llvm.struct<(i32, i64, !llvm.ptr<1>, !llvm.struct<(i8, i64)>)> to !llvm.struct<(i32, index, !mem.ptr<f32, 1>, !llvm.struct<(i8, index)>)>
// CHECK-NEXT:   %0 = llvm.extractvalue %p[1] : !llvm.struct<(i32, i64, !llvm.ptr<1>, !llvm.struct<(i8, i64)>)>
// CHECK-NEXT:   %n = builtin.unrealized_conversion_cast %0 : i64 to index
// CHECK-NEXT:   %1 = llvm.extractvalue %p[2] : !llvm.struct<(i32, i64, !llvm.ptr<1>, !llvm.struct<(i8, i64)>)>
// CHECK-NEXT:   %ptr = builtin.unrealized_conversion_cast %1 : !llvm.ptr<1> to !mem.ptr<f32, 1>
// CHECK-NEXT:   %2 = llvm.extractvalue %p[3, 1] : !llvm.struct<(i32, i64, !llvm.ptr<1>, !llvm.struct<(i8, i64)>)>
// CHECK-NEXT:   %m = builtin.unrealized_conversion_cast %2 : i64 to index
// CHECK-NEXT:   %x = llvm.extractvalue %q[0] : !llvm.struct<(f32, i32)>
// CHECK-NEXT:   %3 = llvm.mlir.undef : !llvm.struct<(i64, f32)>
// CHECK-NEXT:   %u = builtin.unrealized_conversion_cast %3 : !llvm.struct<(i64, f32)> to !llvm.struct<(index, f32)>
// CHECK-NEXT:   %4 = llvm.mlir.zero : !llvm.struct<(i64, f32)>
// CHECK-NEXT:   %z = builtin.unrealized_conversion_cast %4 : !llvm.struct<(i64, f32)> to !llvm.struct<(index, f32)>
// CHECK-NEXT:   %5 = llvm.insertvalue %0, %3[0] : !llvm.struct<(i64, f32)>
// CHECK-NEXT:   %v = builtin.unrealized_conversion_cast %5 : !llvm.struct<(i64, f32)> to !llvm.struct<(index, f32)>
// CHECK-NEXT:   llvm.call @use(%0, %1, %2, %x, %5, %4) : (i64, !llvm.ptr<1>, i64, f32, !llvm.struct<(i64, f32)>, !llvm.struct<(i64, f32)>) -> ()
// CHECK-NEXT:   llvm.return
// CHECK-NEXT: }

// The example's kernel through all of device-to-llvm: only llvm ops and llvm types are left.
// FULL:      llvm.func @affine(%p: !llvm.struct<(f32, f32, i32)>, %a: !llvm.ptr<1>, %out: !llvm.ptr<1>) attributes {gpu.kernel, nvvm.kernel} {
// FULL:        %scale = llvm.extractvalue %p[0] : !llvm.struct<(f32, f32, i32)>
// FULL:        %n32 = llvm.extractvalue %p[2] : !llvm.struct<(f32, f32, i32)>
// FULL-NOT:    unrealized_conversion_cast
// FULL:      }
