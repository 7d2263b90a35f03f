// RUN: not gpu-opt %s --split-input-file 2>&1 | filecheck %s

// A token that starts neither an op nor a block label, where a block's next op goes, is an
// error that says what was expected, at the token (xDSL's message was ` in block definition`).

func.func @f(%a: i32) -> i32 {
  %b = arith.addi %a, %a : i32
  ] oops
  func.return %b : i32
}

// CHECK:      parse-error-in-block.mlir:8:3: error: expected an operation, a block label (^name) or '}', found ']'
// CHECK-NEXT:   ] oops
// CHECK-NEXT:   ^

// -----

// The same after an op with a region (MLIR's attribute dictionary after a region is `{…}`).

func.func @g() {
  scf.execute_region {
    scf.yield
  } [1]
  func.return
}

// CHECK: parse-error-in-block.mlir:23:5: error: expected an operation, a block label (^name) or '}', found '['
