// RUN: not gpu-opt %s 2>&1 | filecheck %s
// RUN: not gpu-run %s --provider interp 3 2>&1 | filecheck %s
//
// Found by the fuzzer (tests/fuzz): the last block of a function lost its `func.return`. xDSL
// verifies that a block ends with a terminator only when it has ops (or is the only block), so
// this verified, and gpu-run's interpreter ran off the end of `^done` into an internal error
// ("zip() argument 2 is longer than argument 1"). It is an error at the function now
// (gpuir/verifier.py).

// CHECK-NOT: Traceback
func.func @main(%m: !mem.M<0>, %x: i32) -> (!mem.M<0>, i32) {
  %zero = arith.constant 0 : i32
  %positive = arith.cmpi sgt, %x, %zero : i32
  cf.cond_br %positive, ^done(%x : i32), ^negate
^negate:
  %y = arith.subi %zero, %x : i32
  cf.br ^done(%y : i32)
^done(%r: i32):
}
// CHECK: empty-block.mlir:11:1: error: ^done of 'func.func' is empty: a block must end with a terminator
// CHECK-NOT: {{Traceback|internal error}}
