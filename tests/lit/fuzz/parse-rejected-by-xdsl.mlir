// RUN: not gpu-opt %s --split-input-file 2>&1 | filecheck %s
//
// Found by the fuzzer (tests/fuzz): some of xDSL's parsers raise a Python exception on bad
// input instead of a parse error, and gpu-opt reported an internal error. Each is now a parse
// error at the op.

// CHECK-NOT: Traceback

// A dense literal element out of its type's range (ValueError in xDSL's DenseIntOrFPElementsAttr).
%m0 = "test.op"() : () -> !mem.M<0>
%a0, %b = "buffer.init"(%m0) <{value = dense<[1, 9223372036854775807]> : tensor<2xi32>}> : (!mem.M<0>) -> (!mem.M<0>, !buffer.buf<2xi32>)
// CHECK: parse-rejected-by-xdsl.mlir:[[# @LINE - 1]]:1: error: 'buffer.init': Integer value 9223372036854775807 is out of range for type i32

// -----

// A splat of a shape too large to hold (xDSL stores every element: MemoryError).
%m0 = "test.op"() : () -> !mem.M<0>
%a0, %b = "buffer.init"(%m0) <{value = dense<1> : tensor<9223372036854775807xi32>}> : (!mem.M<0>) -> (!mem.M<0>, !buffer.buf<9223372036854775807xi32>)
// CHECK: parse-rejected-by-xdsl.mlir:[[# @LINE - 1]]:1: error: 'buffer.init' is too large to hold in memory

// -----

// cf.switch on a flag that is not an integer (an assert in xDSL's cf.switch parser) ...
func.func @f(%flag: f32, %x: i32) -> i32 {
  cf.switch %flag : f32, [
    default: ^end(%x : i32),
    5: ^end(%x : i32)
  ]
^end(%r: i32):
  func.return %r : i32
}
// CHECK: parse-rejected-by-xdsl.mlir:[[# @LINE - 7]]:3: error: 'cf.switch' is malformed: xDSL's parser rejects it

// -----

// ... or with a case value out of the flag's range (ValueError).
func.func @f(%flag: i1, %x: i32) -> i32 {
  cf.switch %flag : i1, [
    default: ^end(%x : i32),
    5: ^end(%x : i32)
  ]
^end(%r: i32):
  func.return %r : i32
}
// CHECK: parse-rejected-by-xdsl.mlir:[[# @LINE - 7]]:3: error: 'cf.switch': Integer value 5 is out of range for type i1

// CHECK-NOT: {{Traceback|internal error}}
