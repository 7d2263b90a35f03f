// RUN: not gpu-opt %s --split-input-file 2>&1 | filecheck %s
//
// llvm.extractvalue / llvm.insertvalue in the generic form: xDSL checks neither the position
// nor the types, and the interpreter or the lowering then failed with an internal error.
// gpu-opt, gpu-run and gpuir.compile reject them at the op (gpuir/verifier.py).

// CHECK-NOT: Traceback
// CHECK-NOT: internal error

func.func @f(%p: !llvm.struct<(i32, f32)>) -> i32 {
  %x = "llvm.extractvalue"(%p) <{position = array<i64: 2>}> : (!llvm.struct<(i32, f32)>) -> i32
  func.return %x : i32
}
// CHECK: error: 'llvm.extractvalue': position [2] is not a field of !llvm.struct<(i32, f32)>

// -----

func.func @f(%p: !llvm.struct<(i32, f32)>) -> i32 {
  %x = "llvm.extractvalue"(%p) <{position = array<i64: 1>}> : (!llvm.struct<(i32, f32)>) -> i32
  func.return %x : i32
}
// CHECK: error: 'llvm.extractvalue' extracts i32 at [1] of !llvm.struct<(i32, f32)>, whose field there is f32

// -----

func.func @f(%p: !llvm.struct<(i32, f32)>) -> i32 {
  %x = "llvm.extractvalue"(%p) <{position = array<i64: 0, 0>}> : (!llvm.struct<(i32, f32)>) -> i32
  func.return %x : i32
}
// CHECK: error: 'llvm.extractvalue': position [0, 0] indexes into i32

// -----

func.func @f(%p: !llvm.struct<(i32, !llvm.struct<(i8)>)>, %v: f32) -> !llvm.struct<(i32, !llvm.struct<(i8)>)> {
  %q = "llvm.insertvalue"(%p, %v) <{position = array<i64: 1, 0>}> : (!llvm.struct<(i32, !llvm.struct<(i8)>)>, f32) -> !llvm.struct<(i32, !llvm.struct<(i8)>)>
  func.return %q : !llvm.struct<(i32, !llvm.struct<(i8)>)>
}
// CHECK: error: 'llvm.insertvalue' inserts f32 at [1, 0] of !llvm.struct<(i32, !llvm.struct<(i8)>)>, whose field there is i8

// -----

func.func @f(%p: !llvm.struct<(i32)>, %v: i32) -> !llvm.struct<(i64)> {
  %q = "llvm.insertvalue"(%p, %v) <{position = array<i64: 0>}> : (!llvm.struct<(i32)>, i32) -> !llvm.struct<(i64)>
  func.return %q : !llvm.struct<(i64)>
}
// CHECK: error: 'llvm.insertvalue' into !llvm.struct<(i32)> must return it, found !llvm.struct<(i64)>

// -----

// The custom syntax: xDSL's parser indexes the struct's fields with the position unchecked
// (an IndexError, reported as an internal error); now a parse error at the op.
func.func @f(%p: !llvm.struct<(i32, f32)>) -> i32 {
  %x = llvm.extractvalue %p[5] : !llvm.struct<(i32, f32)>
  func.return %x : i32
}
// CHECK: llvm-struct-positions.mlir:[[# @LINE - 3]]:3: error: 'llvm.extractvalue' is malformed: a position or index is out of range
