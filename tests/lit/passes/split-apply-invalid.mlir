// RUN: gpu-opt %s -p 'split-apply{host-pipeline="" device-pipeline=""}' --verify-diagnostics --split-input-file | filecheck %s
// RUN: not gpu-opt %s -p 'split-apply{host-pipeline="no-such-pass" device-pipeline=""}' --split-input-file 2>&1 | filecheck %s --check-prefix=HOST
// RUN: not gpu-opt %s -p 'split-apply{host-pipeline="" device-pipeline="cse,canonicalise"}' --split-input-file 2>&1 | filecheck %s --check-prefix=DEVICE
// RUN: not gpu-opt %s -p 'split-apply{host-pipeline="canonicalize{no-such-option=1}" device-pipeline=""}' --split-input-file 2>&1 | filecheck %s --check-prefix=OPTION
// RUN: not gpu-opt %s -p 'split-apply{host-pipeline="" device-pipeline="cse{"}' --split-input-file 2>&1 | filecheck %s --check-prefix=SYNTAX

// The sub-pipelines are checked before anything is split: an unknown pass, a bad option or
// text that is no pipeline is an error that names the option. This first case is valid IR, so
// that each RUN line above reports its pipeline's error here.

func.func @f() {
  func.return
}

// CHECK:      builtin.module {
// CHECK-NEXT:   builtin.module @host {
// CHECK-NEXT:     func.func @f() {
// CHECK-NEXT:       func.return
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT:   builtin.module @device attributes {gpu.device} {
// CHECK-NEXT:   }
// CHECK-NEXT: }

// HOST:   split-apply: host-pipeline="no-such-pass" names the unknown pass 'no-such-pass'{{$}}
// DEVICE: split-apply: device-pipeline="cse,canonicalise" names the unknown pass 'canonicalise' (did you mean 'canonicalize'?)
// OPTION: split-apply: host-pipeline="canonicalize{no-such-option=1}" has bad options: Provided arguments ["no_such_option"] not found in expected arguments []

// SYNTAX: split-apply: device-pipeline="cse{" is not a pass pipeline: unclosed '{' of the options at column 4 of 'cse{'{{$}}

// -----

// A module that holds @host but is not a split (a function beside it, no @device) is an
// error. (A split module, @host then @device, only gets its sub-pipelines:
// split-apply-split.mlir.)

// expected-error @below {{split-apply: the module is already split (it holds the module @host)}}
builtin.module @host {
}
func.func @g() {
  func.return
}

// -----

// A program is a module of functions; one that holds another module cannot be split.

func.func @f() {
  func.return
}
// expected-error @below {{split-apply: expected a module of top-level functions, found the nested module @lib}}
builtin.module @lib {
}
