// RUN: gpu-opt %s --verify-diagnostics --split-input-file

// A struct kernel argument passes by value: every field needs a GPU representation (an
// integer up to 64 bits, index, f16/f32/f64, a !mem.ptr<T, 1>, or a nested struct of those).
// The launch's verifier names the field, the argument and the kernel.

func.func @k(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>, %g: index, %i: index,
             %n: i32, %p: !llvm.struct<(i32, !mem.ptr<f32, 0>)>)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
  func.return %m1, %m3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}
func.func @main(%m0: !mem.M<0>, %m1: !mem.M<1>, %m4: !mem.M<4>, %n: i32,
                %p: !llvm.struct<(i32, !mem.ptr<f32, 0>)>) -> !mem.M<0> {
  %s = gpu.default_stream
  %one = arith.constant 1 : index
  // expected-error @below {{field 1 of argument 1 of gpu.launch @k has type !mem.ptr<f32, 0>, which has no GPU representation}}
  %a0, %a1, %a4 = gpu.launch @k grid(%one, %one) stream(%s) mems(%m0, %m1, %m4) args(%n, %p) : (i32, !llvm.struct<(i32, !mem.ptr<f32, 0>)>)
  func.return %a0 : !mem.M<0>
}


// -----

!t = !llvm.struct<(f32, !mem.M<1>)>
func.func @k(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>, %g: index, %i: index, %p: !t)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
  func.return %m1, %m3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}
func.func @main(%m0: !mem.M<0>, %m1: !mem.M<1>, %m4: !mem.M<4>, %p: !t) -> !mem.M<0> {
  %s = gpu.default_stream
  %one = arith.constant 1 : index
  // expected-error @below {{field 1 of argument 0 of gpu.launch @k has type !mem.M<1>, which has no GPU representation}}
  %a0, %a1, %a4 = gpu.launch @k grid(%one, %one) stream(%s) mems(%m0, %m1, %m4) args(%p) : (!t)
  func.return %a0 : !mem.M<0>
}


// -----

!t = !llvm.struct<(!buffer.buf<4xf32>)>
func.func @k(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>, %g: index, %i: index, %p: !t)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
  func.return %m1, %m3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}
func.func @main(%m0: !mem.M<0>, %m1: !mem.M<1>, %m4: !mem.M<4>, %p: !t) -> !mem.M<0> {
  %s = gpu.default_stream
  %one = arith.constant 1 : index
  // expected-error @below {{field 0 of argument 0 of gpu.launch @k has type !buffer.buf<4xf32>, which has no GPU representation}}
  %a0, %a1, %a4 = gpu.launch @k grid(%one, %one) stream(%s) mems(%m0, %m1, %m4) args(%p) : (!t)
  func.return %a0 : !mem.M<0>
}


// -----

// A field of a nested struct is named by its path; arrays are not fields of parameter structs.
!t = !llvm.struct<(i8, !llvm.struct<(f64, !llvm.array<4 x i32>)>)>
func.func @k(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>, %g: index, %i: index, %p: !t)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
  func.return %m1, %m3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}
func.func @main(%m0: !mem.M<0>, %m1: !mem.M<1>, %m4: !mem.M<4>, %p: !t) -> !mem.M<0> {
  %s = gpu.default_stream
  %one = arith.constant 1 : index
  // expected-error @below {{field 1.1 of argument 0 of gpu.launch @k has type !llvm.array<4 x i32>, which has no GPU representation}}
  %a0, %a1, %a4 = gpu.launch @k grid(%one, %one) stream(%s) mems(%m0, %m1, %m4) args(%p) : (!t)
  func.return %a0 : !mem.M<0>
}


// -----

// A shared-memory pointer means nothing outside its work-group.
!t = !llvm.struct<(!mem.ptr<f32, 3>)>
func.func @k(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>, %g: index, %i: index, %p: !t)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
  func.return %m1, %m3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}
func.func @main(%m0: !mem.M<0>, %m1: !mem.M<1>, %m4: !mem.M<4>, %p: !t) -> !mem.M<0> {
  %s = gpu.default_stream
  %one = arith.constant 1 : index
  // expected-error @below {{field 0 of argument 0 of gpu.launch @k has type !mem.ptr<f32, 3>, which has no GPU representation}}
  %a0, %a1, %a4 = gpu.launch @k grid(%one, %one) stream(%s) mems(%m0, %m1, %m4) args(%p) : (!t)
  func.return %a0 : !mem.M<0>
}


// -----

!t = !llvm.struct<()>
func.func @k(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>, %g: index, %i: index, %p: !t)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
  func.return %m1, %m3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}
func.func @main(%m0: !mem.M<0>, %m1: !mem.M<1>, %m4: !mem.M<4>, %p: !t) -> !mem.M<0> {
  %s = gpu.default_stream
  %one = arith.constant 1 : index
  // expected-error @below {{argument 0 of gpu.launch @k has type !llvm.struct<()>: a kernel argument may be a literal struct of one or more fields, not an empty or named one}}
  %a0, %a1, %a4 = gpu.launch @k grid(%one, %one) stream(%s) mems(%m0, %m1, %m4) args(%p) : (!t)
  func.return %a0 : !mem.M<0>
}


// -----

!t = !llvm.struct<"params", (i32)>
func.func @k(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>, %g: index, %i: index, %p: !t)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
  func.return %m1, %m3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}
func.func @main(%m0: !mem.M<0>, %m1: !mem.M<1>, %m4: !mem.M<4>, %p: !t) -> !mem.M<0> {
  %s = gpu.default_stream
  %one = arith.constant 1 : index
  // expected-error @below {{argument 0 of gpu.launch @k has type !llvm.struct<"params", (i32)>: a kernel argument may be a literal struct of one or more fields, not an empty or named one}}
  %a0, %a1, %a4 = gpu.launch @k grid(%one, %one) stream(%s) mems(%m0, %m1, %m4) args(%p) : (!t)
  func.return %a0 : !mem.M<0>
}
