// RUN: gpu-opt %s --print-op-generic | filecheck %s
// RUN: GENERIC_ROUNDTRIP
// RUN: ROUNDTRIP --check-prefix=CUSTOM

func.func @f(%a: i32) -> i32 {
  %b = arith.muli %a, %a : i32
  func.return %b : i32
}

// CHECK:      "builtin.module"() ({
// CHECK-NEXT:   "func.func"() <{sym_name = "f", function_type = (i32) -> i32}> ({
// CHECK-NEXT:   ^bb0(%a: i32):
// CHECK-NEXT:     %b = "arith.muli"(%a, %a) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
// CHECK-NEXT:     "func.return"(%b) : (i32) -> ()
// CHECK-NEXT:   }) : () -> ()
// CHECK-NEXT: }) : () -> ()

// CHECK-GENERIC: "arith.muli"(%a, %a) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32

// CUSTOM:      func.func @f(%a: i32) -> i32 {
// CUSTOM-NEXT:   %b = arith.muli %a, %a : i32
// CUSTOM-NEXT:   func.return %b : i32
// CUSTOM-NEXT: }
