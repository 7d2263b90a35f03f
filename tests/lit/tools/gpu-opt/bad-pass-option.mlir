// RUN: not gpu-opt %s -p 'canonicalize{no-such-option=1}' 2>&1 | filecheck %s
// RUN: not gpu-opt %s -p 'expand-math-to-polynomials{terms=many}' 2>&1 | filecheck %s --check-prefix=TYPE
// RUN: not gpu-opt %s -p 'cse,arith-add-fastmath{flags=fastest}' 2>&1 | filecheck %s --check-prefix=APPLY
// RUN: not gpu-opt %s -p 'canonicalize{' 2>&1 | filecheck %s --check-prefix=SYNTAX
// RUN: not gpu-opt %s -p 'split-apply{device-pipeline=cse,canonicalize}' 2>&1 | filecheck %s --check-prefix=QUOTE
// RUN: not gpu-run %s -p 'gpu-pipeline{host-pipeline=cse,canonicalize}' 2>&1 | filecheck %s --check-prefix=TOOL

// Options that a pass does not take, values it cannot use and a pipeline that does not parse
// are errors that name the pipeline, not tracebacks.

func.func @f() {
  func.return
}

// CHECK:      gpu-opt: error: bad pass pipeline 'canonicalize{no-such-option=1}': Provided arguments ["no_such_option"] not found in expected arguments []
// CHECK-NOT:  Traceback

// A nested pipeline of several passes must be quoted; without quotes the message says so.
// QUOTE:     gpu-opt: error: bad pass pipeline 'split-apply{device-pipeline=cse,canonicalize}': option 'device-pipeline' of split-apply takes one text, got 2 values: quote a nested pipeline, as in split-apply{device-pipeline="cse,canonicalize"}
// TOOL: gpu-run: error: bad pass pipeline 'gpu-pipeline{host-pipeline=cse,canonicalize}': option 'host-pipeline' of gpu-pipeline takes one text, got 2 values: quote a nested pipeline, as in gpu-pipeline{host-pipeline="cse,canonicalize"}

// TYPE:      gpu-opt: error: bad pass pipeline 'expand-math-to-polynomials{terms=many}': Incompatible types: given ('many',), expected int | None
// TYPE-NOT:  Traceback

// A pass that checks its options only when it runs fails as it runs; gpu-opt names the pass.
// APPLY:      gpu-opt: internal error in pass 'arith-add-fastmath': ValueError: 'fastest' is not a valid fastmath flag.
// APPLY-NEXT: gpu-opt: note: set GPUIR_DEBUG=1 to see the Python traceback
// APPLY-NOT:  Traceback

// SYNTAX:      gpu-opt: error: bad pass pipeline 'canonicalize{': unclosed '{' of the options at column 13 of 'canonicalize{'
// SYNTAX-NOT:  Traceback
