// RUN: gpu-run %s --provider interp 3 2>&1 | filecheck %s
//
// Found by the fuzzer (tests/fuzz): a function of more than one block (here @main, with a
// branch) could not be called by the interpreter (`Machine.call`, now in
// gpuir/runtime/engine/machine.py): its check for a body asked for the region's single
// block, an internal error ("'block' property of Region class is only
// available for single-block regions"). It runs now.

func.func @main(%m: !mem.M<0>, %x: i32) -> (!mem.M<0>, i32) {
  %zero = arith.constant 0 : i32
  %positive = arith.cmpi sgt, %x, %zero : i32
  cf.cond_br %positive, ^done(%x : i32), ^negate
^negate:
  %y = arith.subi %zero, %x : i32
  cf.br ^done(%y : i32)
^done(%r: i32):
  func.return %m, %r : !mem.M<0>, i32
}
// CHECK-NOT: {{Traceback|internal error}}
// CHECK: 3
