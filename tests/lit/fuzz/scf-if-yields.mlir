// RUN: not gpu-opt %s --split-input-file 2>&1 | filecheck %s
//
// Found by the fuzzer (tests/fuzz): xDSL's verifier does not compare what the regions of an
// `scf.if` yield with its results (its parser even gives a region without a terminator an
// empty `scf.yield`), nor ask for an else region when there are results; gpu-run's interpreter
// then failed with an internal error ("Incorrect number of results for op scf.if"). gpu-opt,
// gpu-run and gpuir.compile now reject it at the scf.yield (at the scf.if for a parser-made one).

// CHECK-NOT: Traceback

// The yield deleted (the parser adds an empty one).
func.func @f(%c: i1, %a: index) -> index {
  %r = scf.if %c -> (index) {
  } else {
    scf.yield %a : index
  }
  func.return %r : index
}
// CHECK: scf-if-yields.mlir:13:3: error: 'scf.if' has results (index) but its then region yields ()

// -----

// A value of another type.
func.func @f(%c: i1, %a: index, %b: i32) -> index {
  %r = scf.if %c -> (index) {
    scf.yield %a : index
  } else {
    scf.yield %b : i32
  }
  func.return %r : index
}
// CHECK: scf-if-yields.mlir:28:5: error: 'scf.if' has results (index) but its else region yields (i32)

// -----

// No else region.
func.func @f(%c: i1, %a: index) -> index {
  %r = scf.if %c -> (index) {
    scf.yield %a : index
  }
  func.return %r : index
}
// CHECK: scf-if-yields.mlir:38:3: error: 'scf.if' has 1 result(s), so it needs an else region

// CHECK-NOT: {{Traceback|internal error}}
