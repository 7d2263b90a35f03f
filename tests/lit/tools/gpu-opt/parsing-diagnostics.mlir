// RUN: gpu-opt %s --parsing-diagnostics | filecheck %s

// --parsing-diagnostics keeps xdsl-opt's behaviour: xDSL's message on stdout, exit status 0.

"func.func"() <{sym_name = "f", function_type = () -> ()}> ({
  %x = arith.constant : i32
}) : () -> ()

// CHECK:      parsing-diagnostics.mlir:6:23
// CHECK-NEXT: {{^}}  %x = arith.constant : i32
// CHECK-NEXT: {{^}}                      ^
// CHECK-NEXT: {{^}}                      attribute expected
