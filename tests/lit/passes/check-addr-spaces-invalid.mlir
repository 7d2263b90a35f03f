// RUN: gpu-opt %s -p check-addr-spaces --verify-diagnostics --split-input-file

// One case per rule: no heap in shared, const or local memory ...

func.func @f(%m3: !mem.M<3>) -> !mem.M<3> {
  // expected-error @below {{`mem.alloc` cannot be used in address space 3: `!mem.ptr<!mem.array<4 x i32>, 3>`}}
  %a, %p = mem.alloc %m3 : !mem.ptr<!mem.array<4 x i32>, 3>
  func.return %a : !mem.M<3>
}


// -----

func.func @f(%m4: !mem.M<4>, %n: index) -> !mem.M<4> {
  // expected-error @below {{`mem.alloc` cannot be used in address space 4: `!mem.ptr<!mem.array<? x f32>, 4>`}}
  %a, %p = mem.alloc %m4, %n : !mem.ptr<!mem.array<? x f32>, 4>
  func.return %a : !mem.M<4>
}


// -----

func.func @f(%m3: !mem.M<3>, %n: index) -> !mem.M<3> {
  // expected-error @below {{`mem.malloc` cannot be used in address space 3: `!mem.ptr<i32, 3>`}}
  %a, %p = mem.malloc %m3, %n : !mem.ptr<i32, 3>
  func.return %a : !mem.M<3>
}


// -----

func.func @f(%m5: !mem.M<5>, %n: index) -> !mem.M<5> {
  // expected-error @below {{`mem.malloc` cannot be used in address space 5: `!mem.ptr<f64, 5>`}}
  %a, %p = mem.malloc %m5, %n : !mem.ptr<f64, 5>
  func.return %a : !mem.M<5>
}


// -----

func.func @f(%m4: !mem.M<4>, %p: !mem.ptr<i32, 4>) -> !mem.M<4> {
  // expected-error @below {{`mem.free` cannot be used in address space 4: `!mem.ptr<i32, 4>`}}
  %a = mem.free %m4, %p : !mem.ptr<i32, 4>
  func.return %a : !mem.M<4>
}


// -----

func.func @f(%m5: !mem.M<5>, %p: !mem.ptr<i32, 5>) -> !mem.M<5> {
  // expected-error @below {{`mem.free` cannot be used in address space 5: `!mem.ptr<i32, 5>`}}
  %a = mem.free %m5, %p : !mem.ptr<i32, 5>
  func.return %a : !mem.M<5>
}


// -----

// ... no slots in global or const memory ...

func.func @f(%m1: !mem.M<1>) -> !mem.M<1> {
  // expected-error @below {{`mem.slot` cannot be used in address space 1: `!mem.ptr<i32, 1>`}}
  %a, %p = mem.slot %m1 : !mem.ptr<i32, 1>
  func.return %a : !mem.M<1>
}


// -----

func.func @f(%m4: !mem.M<4>) -> !mem.M<4> {
  // expected-error @below {{`mem.slot` cannot be used in address space 4: `!mem.ptr<!mem.array<8 x f32>, 4>`}}
  %a, %p = mem.slot %m4 : !mem.ptr<!mem.array<8 x f32>, 4>
  func.return %a : !mem.M<4>
}


// -----

func.func @f(%m1: !mem.M<1>, %n: index) -> !mem.M<1> {
  // expected-error @below {{`mem.mslot` cannot be used in address space 1: `!mem.ptr<i8, 1>`}}
  %a, %p = mem.mslot %m1, %n : !mem.ptr<i8, 1>
  func.return %a : !mem.M<1>
}


// -----

func.func @f(%m4: !mem.M<4>, %n: index) -> !mem.M<4> {
  // expected-error @below {{`mem.mslot` cannot be used in address space 4: `!mem.ptr<i8, 4>`}}
  %a, %p = mem.mslot %m4, %n : !mem.ptr<i8, 4>
  func.return %a : !mem.M<4>
}


// -----

// ... and no stores to const memory.

func.func @f(%m4: !mem.M<4>, %p: !mem.ptr<f32, 4>, %v: f32) -> !mem.M<4> {
  // expected-error @below {{`mem.store` cannot be used in address space 4: `!mem.ptr<f32, 4>`}}
  %a = mem.store %m4, %p, %v : !mem.ptr<f32, 4>
  func.return %a : !mem.M<4>
}


// -----

// The first violation in program order is the one reported, also in nested regions.

func.func @f(%m1: !mem.M<1>, %m3: !mem.M<3>, %c: i1) -> (!mem.M<1>, !mem.M<3>) {
  %r = scf.if %c -> (!mem.M<3>) {
    // expected-error @below {{`mem.alloc` cannot be used in address space 3: `!mem.ptr<i32, 3>`}}
    %a, %p = mem.alloc %m3 : !mem.ptr<i32, 3>
    scf.yield %a : !mem.M<3>
  } else {
    scf.yield %m3 : !mem.M<3>
  }
  %b, %q = mem.slot %m1 : !mem.ptr<i32, 1>
  func.return %b, %r : !mem.M<1>, !mem.M<3>
}
