// RUN: gpu-opt %s -p convert-func-to-llvm --split-input-file | filecheck %s
// RUN: gpu-opt %s -p convert-func-to-llvm --split-input-file --mlir-pass-statistics -o /dev/null 2>&1 | filecheck %s --check-prefix=STATS

// The statistics of the whole file: four functions; three calls and three returns.
// STATS:      {{^}}ConvertFuncToLlvm
// STATS-NEXT:   (S) 4 num-functions-lowered - Number of functions made llvm.func
// STATS-NEXT:   (S) 6 num-ops-lowered       - Number of calls, returns and struct ops lowered to the llvm dialect

// Signatures take llvm types; a kernel becomes an external llvm.func marked nvvm.kernel, other
// functions with a body are internal, declarations external. Several results travel as a
// struct.
builtin.module attributes {gpu.device} {
  func.func private @external(f32) -> f32
  func.func @pair(%i: index, %p: !mem.ptr<f32, 1>) -> (index, !mem.ptr<f32, 1>) {
    func.return %i, %p : index, !mem.ptr<f32, 1>
  }
  func.func @kernel(%p: !mem.ptr<f32, 1>, %n: index, %x: f32) attributes {gpu.kernel} {
    %i, %q = func.call @pair(%n, %p) : (index, !mem.ptr<f32, 1>) -> (index, !mem.ptr<f32, 1>)
    %y = func.call @external(%x) : (f32) -> f32
    func.call @nothing() : () -> ()
    func.return
  }
  func.func @nothing() {
    func.return
  }
}

// CHECK: builtin.module attributes {gpu.device} {
// CHECK-NEXT:   llvm.func @external(f32) -> f32
// CHECK-NEXT:   llvm.func internal @pair(%i: i64, %p: !llvm.ptr<1>) -> !llvm.struct<(i64, !llvm.ptr<1>)> {
// CHECK-NEXT:     %i_1 = builtin.unrealized_conversion_cast %i : i64 to index
// CHECK-NEXT:     %p_1 = builtin.unrealized_conversion_cast %p : !llvm.ptr<1> to !mem.ptr<f32, 1>
// CHECK-NEXT:     %0 = llvm.mlir.undef : !llvm.struct<(i64, !llvm.ptr<1>)>
// CHECK-NEXT:     %1 = llvm.insertvalue %i, %0[0] : !llvm.struct<(i64, !llvm.ptr<1>)>
// CHECK-NEXT:     %2 = llvm.insertvalue %p, %1[1] : !llvm.struct<(i64, !llvm.ptr<1>)>
// CHECK-NEXT:     llvm.return %2 : !llvm.struct<(i64, !llvm.ptr<1>)>
// CHECK-NEXT:   }
// CHECK-NEXT:   llvm.func @kernel(%p_2: !llvm.ptr<1>, %n: i64, %x: f32) attributes {gpu.kernel, nvvm.kernel} {
// CHECK-NEXT:     %p_3 = builtin.unrealized_conversion_cast %p_2 : !llvm.ptr<1> to !mem.ptr<f32, 1>
// CHECK-NEXT:     %n_1 = builtin.unrealized_conversion_cast %n : i64 to index
// CHECK-NEXT:     %3 = llvm.call @pair(%n, %p_2) : (i64, !llvm.ptr<1>) -> !llvm.struct<(i64, !llvm.ptr<1>)>
// CHECK-NEXT:     %4 = llvm.extractvalue %3[0] : !llvm.struct<(i64, !llvm.ptr<1>)>
// CHECK-NEXT:     %5 = llvm.extractvalue %3[1] : !llvm.struct<(i64, !llvm.ptr<1>)>
// CHECK-NEXT:     %i_2 = builtin.unrealized_conversion_cast %4 : i64 to index
// CHECK-NEXT:     %q = builtin.unrealized_conversion_cast %5 : !llvm.ptr<1> to !mem.ptr<f32, 1>
// CHECK-NEXT:     %y = llvm.call @external(%x) : (f32) -> f32
// CHECK-NEXT:     llvm.call @nothing() : () -> ()
// CHECK-NEXT:     llvm.return
// CHECK-NEXT:   }
// CHECK-NEXT:   llvm.func internal @nothing() {
// CHECK-NEXT:     llvm.return
// CHECK-NEXT:   }
// CHECK-NEXT: }
