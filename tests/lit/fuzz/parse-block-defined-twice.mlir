// RUN: not gpu-opt %s 2>&1 | filecheck %s
//
// Found by the fuzzer (tests/fuzz): a block defined twice, when a branch refers to it before
// its first definition, was an internal error (KeyError: 'done'): xDSL's parser forgets that
// first definition. It is the parse error xDSL gives for other blocks defined twice.

// CHECK-NOT: Traceback
func.func @main(%m: !mem.M<0>, %x: i32) -> (!mem.M<0>, i32) {
  cf.br ^done(%x : i32)
^done(%r: i32):
^done(%s: i32):
  func.return %m, %s : !mem.M<0>, i32
}
// CHECK:      parse-block-defined-twice.mlir:11:1: error: re-declaration of block 'done'
// CHECK-NEXT: ^done(%s: i32):
// CHECK:      parse-block-defined-twice.mlir:10:1: note: originally declared here:
// CHECK-NOT: {{Traceback|internal error}}
