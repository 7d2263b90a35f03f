// The llvm ops that gpuir adds to xDSL's llvm dialect parse (custom and generic form), verify
// and print back; gpu-opt loads them with the llvm dialect, on the first llvm op of the input.
// RUN: gpu-opt %s | gpu-opt | filecheck %s
// RUN: gpu-opt %s --print-op-generic | gpu-opt | filecheck %s

llvm.func @casts(%p: !llvm.ptr, %x: f32, %i: i32) {
  %q = llvm.addrspacecast %p : !llvm.ptr to !llvm.ptr<1>
  %s = llvm.fptosi %x : f32 to i32
  %u = llvm.fptoui %x : f32 to i64
  %f = "llvm.uitofp"(%i) : (i32) -> f64
  llvm.return
}

// CHECK:      llvm.func @casts(%p: !llvm.ptr, %x: f32, %i: i32) {
// CHECK-NEXT:   %q = llvm.addrspacecast %p : !llvm.ptr to !llvm.ptr<1>
// CHECK-NEXT:   %s = llvm.fptosi %x : f32 to i32
// CHECK-NEXT:   %u = llvm.fptoui %x : f32 to i64
// CHECK-NEXT:   %f = llvm.uitofp %i : i32 to f64
// CHECK-NEXT:   llvm.return
// CHECK-NEXT: }

llvm.func @poison() -> !llvm.struct<(ptr<1>, i64)> {
  %p = llvm.mlir.poison : !llvm.struct<(ptr<1>, i64)>
  llvm.return %p : !llvm.struct<(ptr<1>, i64)>
}

// CHECK:      llvm.func @poison() -> !llvm.struct<(!llvm.ptr<1>, i64)> {
// CHECK-NEXT:   %[[P:.*]] = llvm.mlir.poison : !llvm.struct<(!llvm.ptr<1>, i64)>
// CHECK-NEXT:   llvm.return %[[P]] : !llvm.struct<(!llvm.ptr<1>, i64)>
