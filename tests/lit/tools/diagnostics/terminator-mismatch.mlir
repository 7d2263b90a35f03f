// A terminator that does not match its parent (what an scf.yield yields against the loop's
// iter_args or the op's results, what scf.condition passes, what func.return returns) is
// reported at the terminator, not at the parent op that xDSL's verifier raises from. A yield
// that the parser made up (a region written without one) has no place in the text: it is
// reported at its parent.
// RUN: gpu-opt %s --verify-diagnostics --split-input-file
// RUN: not gpu-opt %s --split-input-file 2>&1 | filecheck %s

func.func @for_type(%lb: index, %ub: index, %s: index, %x: f32) -> f32 {
  %r = scf.for %i = %lb to %ub step %s iter_args(%acc = %x) -> (f32) {
    %c = arith.constant 1 : i32
    // expected-error @below {{Expected yield arg #0 to be f32, but got i32}}
    scf.yield %c : i32
  }
  func.return %r : f32
}
// CHECK:      terminator-mismatch.mlir:13:5: error: Expected yield arg #0 to be f32, but got i32. scf.yield of scf.for must match loop-carried variable types.
// CHECK-NEXT: {{^}}    scf.yield %c : i32
// CHECK-NEXT: {{^}}    ^
// CHECK-NEXT: note: see current operation: "scf.yield"(%c) : (i32) -> ()

// -----

func.func @for_count(%lb: index, %ub: index, %s: index, %x: f32) -> f32 {
  %r = scf.for %i = %lb to %ub step %s iter_args(%acc = %x) -> (f32) {
    // expected-error @below {{scf.yield expected 1 args, but got 2}}
    scf.yield %acc, %acc : f32, f32
  }
  func.return %r : f32
}

// -----

func.func @if_else(%c: i1, %a: index, %b: i32) -> index {
  %r = scf.if %c -> (index) {
    scf.yield %a : index
  } else {
    // expected-error @below {{'scf.if' has results (index) but its else region yields (i32)}}
    scf.yield %b : i32
  }
  func.return %r : index
}

// -----

func.func @if_made_up(%c: i1, %a: index) -> index {
  // expected-error @below {{'scf.if' has results (index) but its then region yields ()}}
  %r = scf.if %c -> (index) {
  } else {
    scf.yield %a : index
  }
  func.return %r : index
}

// -----

func.func @while_condition(%x: i32) -> i32 {
  %r = scf.while (%a = %x) : (i32) -> i32 {
    %c = arith.constant true
    %f = arith.constant 1.0 : f32
    // expected-error @below {{'scf.condition' of 'scf.while' passes (f32) but the loop has results (i32)}}
    scf.condition(%c) %f : f32
  } do {
  ^bb0(%b: i32):
    scf.yield %b : i32
  }
  func.return %r : i32
}

// -----

func.func @while_yield(%x: i32) -> i32 {
  %r = scf.while (%a = %x) : (i32) -> i32 {
    %c = arith.constant true
    scf.condition(%c) %a : i32
  } do {
  ^bb0(%b: i32):
    %f = arith.constant 1.0 : f32
    // expected-error @below {{'scf.yield' of 'scf.while' yields (f32) but the loop's before region takes (i32)}}
    scf.yield %f : f32
  }
  func.return %r : i32
}

// -----

func.func @switch(%i: index, %x: i32) -> i32 {
  %r = scf.index_switch %i -> i32
  case 2 {
    %f = arith.constant 1.0 : f32
    // expected-error @below {{region 2 returns values of types (f32) but expected (i32)}}
    scf.yield %f : f32
  }
  default {
    scf.yield %x : i32
  }
  func.return %r : i32
}

// -----

func.func @switch_default(%i: index, %x: i32) -> i32 {
  %r = scf.index_switch %i -> i32
  case 2 {
    scf.yield %x : i32
  }
  default {
    // expected-error @below {{region default returns values of types () but expected (i32)}}
    scf.yield
  }
  func.return %r : i32
}

// -----

func.func @return(%x: i32) -> f32 {
  // expected-error @below {{Expected arguments to have the same types as the function output types: expected [f32], got [i32]}}
  func.return %x : i32
}
