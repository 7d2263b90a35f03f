// RUN: gpu-opt %s | filecheck %s
// RUN: gpu-opt %s --print-op-generic | gpu-opt | filecheck %s

// Every mem op written in the generic form of IR.md, as tests outside the project write it:
// it parses, verifies and prints in the custom syntax.

func.func @f(%m0: !mem.M<0>, %m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>, %n: index, %c: !mem.ptr<f64, 4>) -> (!mem.M<0>, !mem.M<1>) {
  %a0, %p0 = "mem.alloc"(%m0) : (!mem.M<0>) -> (!mem.M<0>, !mem.ptr<i32, 0>)
  %a1, %p1 = "mem.alloc"(%m1, %n) : (!mem.M<1>, index) -> (!mem.M<1>, !mem.ptr<!mem.array<? x !mem.array<4 x f32>>, 1>)
  %b0, %q0 = "mem.malloc"(%a0, %n) : (!mem.M<0>, index) -> (!mem.M<0>, !mem.ptr<i8, 0>)
  %s3, %sh = "mem.slot"(%m3) : (!mem.M<3>) -> (!mem.M<3>, !mem.ptr<!mem.array<256 x f32>, 3>)
  %s5, %lo = "mem.mslot"(%m5, %n) : (!mem.M<5>, index) -> (!mem.M<5>, !mem.ptr<i64, 5>)
  %row = "mem.lea"(%p1, %n) : (!mem.ptr<!mem.array<? x !mem.array<4 x f32>>, 1>, index) -> !mem.ptr<!mem.array<4 x f32>, 1>
  %e = "mem.lea"(%row, %n) : (!mem.ptr<!mem.array<4 x f32>, 1>, index) -> !mem.ptr<f32, 1>
  %l1, %v = "mem.load"(%a1, %e) : (!mem.M<1>, !mem.ptr<f32, 1>) -> (!mem.M<1>, f32)
  %l4, %w = "mem.load"(%m4, %c) : (!mem.M<4>, !mem.ptr<f64, 4>) -> (!mem.M<4>, f64)
  %st = "mem.store"(%l1, %e, %v) : (!mem.M<1>, !mem.ptr<f32, 1>, f32) -> !mem.M<1>
  %f1 = "mem.free"(%st, %p1) : (!mem.M<1>, !mem.ptr<!mem.array<? x !mem.array<4 x f32>>, 1>) -> !mem.M<1>
  %f0 = "mem.free"(%b0, %q0) : (!mem.M<0>, !mem.ptr<i8, 0>) -> !mem.M<0>
  %r0 = "mem.remem"(%f0) : (!mem.M<0>) -> !mem.M<0>
  func.return %r0, %f1: !mem.M<0>, !mem.M<1>
}

// CHECK:      func.func @f(%m0: !mem.M<0>, %m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>, %n: index, %c: !mem.ptr<f64, 4>) -> (!mem.M<0>, !mem.M<1>) {
// CHECK-NEXT:   %a0, %p0 = mem.alloc %m0 : !mem.ptr<i32, 0>
// CHECK-NEXT:   %a1, %p1 = mem.alloc %m1, %n : !mem.ptr<!mem.array<? x !mem.array<4 x f32>>, 1>
// CHECK-NEXT:   %b0, %q0 = mem.malloc %a0, %n : !mem.ptr<i8, 0>
// CHECK-NEXT:   %s3, %sh = mem.slot %m3 : !mem.ptr<!mem.array<256 x f32>, 3>
// CHECK-NEXT:   %s5, %lo = mem.mslot %m5, %n : !mem.ptr<i64, 5>
// CHECK-NEXT:   %row = mem.lea %p1, %n : !mem.ptr<!mem.array<? x !mem.array<4 x f32>>, 1>
// CHECK-NEXT:   %e = mem.lea %row, %n : !mem.ptr<!mem.array<4 x f32>, 1>
// CHECK-NEXT:   %l1, %v = mem.load %a1, %e : !mem.ptr<f32, 1>
// CHECK-NEXT:   %l4, %w = mem.load %m4, %c : !mem.ptr<f64, 4>
// CHECK-NEXT:   %st = mem.store %l1, %e, %v : !mem.ptr<f32, 1>
// CHECK-NEXT:   %f1 = mem.free %st, %p1 : !mem.ptr<!mem.array<? x !mem.array<4 x f32>>, 1>
// CHECK-NEXT:   %f0 = mem.free %b0, %q0 : !mem.ptr<i8, 0>
// CHECK-NEXT:   %r0 = mem.remem %f0 : !mem.M<0>
// CHECK-NEXT:   func.return %r0, %f1 : !mem.M<0>, !mem.M<1>
// CHECK-NEXT: }
