// RUN: gpu-opt %s 2>&1 | filecheck %s
// RUN: gpu-opt %s -t llvm 2>&1 | filecheck %s --check-prefix=LLVM
// RUN: printf '"test.op"(%%%%later) : (i32) -> ()\n%%%%later = "test.op"() : () -> i32\n' | gpu-opt | filecheck %s --check-prefix=GRAPH
//
// What MLIR accepts, gpuir/dominance.py (see dominance.mlir) accepts too: blocks in any order as
// long as the definition's block dominates; uses in a block the entry cannot reach; any order in
// a module's body (a graph region). `-t llvm` used to translate the blocks in their order in
// the text and fail (KeyError) on a value defined in a later block; it now translates them in
// dominance order and leaves out the block that cannot run.

builtin.module attributes {gpu.device} {
  func.func @f(%a: i32) -> i32 {
    cf.br ^def
  ^use:
    %s = arith.addi %v, %a : i32
    func.return %s : i32
  ^dead:
    func.return %dead : i32
  ^def:
    %v = arith.muli %a, %a : i32
    %dead = arith.addi %a, %a : i32
    cf.br ^use
  }
}

// CHECK:      ^use:
// CHECK-NEXT:   %s = arith.addi %v, %a : i32

// LLVM:      define internal i32 @f(i32 %a)
// LLVM-NEXT: entry:
// LLVM-NEXT:   br label %bb1
// LLVM:      bb1:
// LLVM-NEXT:   %v = mul i32 %a, %a
// LLVM:      bb2:
// LLVM-NEXT:   %s = add i32 %v, %a
// LLVM-NEXT:   ret i32 %s
// LLVM-NEXT: }

// GRAPH: "test.op"(%later) : (i32) -> ()
// GRAPH: %later = "test.op"() : () -> i32
