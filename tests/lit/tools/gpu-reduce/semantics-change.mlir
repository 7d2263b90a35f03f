// gpu-reduce --semantics-change PIPELINE: what is left still makes
// `gpu-opt -p PIPELINE --check-semantics` name a pass that changed @main's results; here a
// planted bug (swap-sub-operands, from check-semantics' tests) loaded through $GPUIR_PLUGINS.
// RUN: env GPUIR_PLUGINS=%S/../check-semantics/Inputs/miscompiles.py gpu-reduce %s --semantics-change swap-sub-operands -o %t.mlir 2> %t.log
// RUN: gpu-opt %t.mlir | filecheck %s
// RUN: not gpu-opt %t.mlir --load-pass-plugin=%S/../check-semantics/Inputs/miscompiles.py -p swap-sub-operands --check-semantics 2>&1 | filecheck %s --check-prefix=CHANGED

// CHECK:      func.func @main(
// CHECK:        arith.subi
// CHECK-NOT:    mem.alloc
// CHECK-NOT:    arith.muli

// CHANGED: error: --check-semantics: pass 'swap-sub-operands' changed what @main computes

func.func @main(%m: !mem.M<0>) -> (!mem.M<0>, i32) {
  %h0, %host = mem.alloc %m : !mem.ptr<i32, 0>
  %seven = arith.constant 7 : i32
  %h1 = mem.store %h0, %host, %seven : !mem.ptr<i32, 0>
  %h2, %x = mem.load %h1, %host : !mem.ptr<i32, 0>
  %three = arith.constant 3 : i32
  %y = arith.muli %x, %three : i32
  %d = arith.subi %y, %x : i32
  %h3 = mem.free %h2, %host : !mem.ptr<i32, 0>
  func.return %h3, %d : !mem.M<0>, i32
}
