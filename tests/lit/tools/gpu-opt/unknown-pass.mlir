// RUN: not gpu-opt %s -p canonicalise 2>&1 | filecheck %s
// RUN: not gpu-opt %s -p cse,no-such-pass 2>&1 | filecheck %s --check-prefix=UNKNOWN

// An unknown pass name is a one-line error, with a suggestion when one is close.

func.func @f() {
  func.return
}

// CHECK:      gpu-opt: error: unknown pass 'canonicalise' (did you mean 'canonicalize'?)
// CHECK-NOT:  Traceback

// UNKNOWN:     gpu-opt: error: unknown pass 'no-such-pass'{{$}}
// UNKNOWN-NOT: Traceback
