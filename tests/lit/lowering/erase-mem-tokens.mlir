// RUN: gpu-opt %s -p erase-mem-tokens --split-input-file | filecheck %s
// RUN: gpu-opt %s -p erase-mem-tokens --split-input-file --mlir-pass-statistics -o /dev/null 2>&1 | filecheck %s --check-prefix=STATS

// The statistics of the whole file: 7 token block arguments (4 parameters, 3 in ^then, ^else and
// ^end), 9 token operands (2 of each return and of the call and cond_br, 1 of each br), the
// remem and the select of tokens.
// STATS:      {{^}}EraseMemTokens
// STATS-NEXT:   (S) 7 num-token-arguments-erased - Number of token block arguments erased
// STATS-NEXT:   (S) 9 num-token-operands-erased  - Number of token operands erased from calls, returns and branches
// STATS-NEXT:   (S) 2 num-token-ops-erased       - Number of ops that only passed tokens on, erased

// Once the memory ops are lowered, tokens only pass through: they leave signatures, block
// arguments, calls, returns and branches; ops that only pick tokens (mem.remem, a select of
// tokens) go with them.
builtin.module attributes {gpu.device} {
  func.func @callee(%m1: !mem.M<1>, %x: i32, %m3: !mem.M<3>) -> (!mem.M<1>, i32, !mem.M<3>) {
    func.return %m1, %x, %m3 : !mem.M<1>, i32, !mem.M<3>
  }
  func.func @caller(%m1: !mem.M<1>, %m3: !mem.M<3>, %c: i1, %x: i32) -> (!mem.M<1>, i32) {
    %a1, %y, %a3 = func.call @callee(%m1, %x, %m3) : (!mem.M<1>, i32, !mem.M<3>) -> (!mem.M<1>, i32, !mem.M<3>)
    %r1 = mem.remem %a1 : !mem.M<1>
    %s1 = arith.select %c, %r1, %m1 : !mem.M<1>
    cf.cond_br %c, ^then(%s1, %y : !mem.M<1>, i32), ^else(%a3 : !mem.M<3>)
  ^then(%t1: !mem.M<1>, %ty: i32):
    cf.br ^end(%t1, %ty : !mem.M<1>, i32)
  ^else(%e3: !mem.M<3>):
    cf.br ^end(%m1, %x : !mem.M<1>, i32)
  ^end(%f1: !mem.M<1>, %fy: i32):
    func.return %f1, %fy : !mem.M<1>, i32
  }
  func.func private @declared(!mem.M<1>, f32) -> (!mem.M<1>, f32)
}

// CHECK: builtin.module attributes {gpu.device} {
// CHECK-NEXT:   func.func @callee(%x: i32) -> i32 {
// CHECK-NEXT:     func.return %x : i32
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func @caller(%c: i1, %x: i32) -> i32 {
// CHECK-NEXT:     %y = func.call @callee(%x) : (i32) -> i32
// CHECK-NEXT:     cf.cond_br %c, ^then(%y : i32), ^else
// CHECK-NEXT:   ^then(%ty: i32):
// CHECK-NEXT:     cf.br ^end(%ty : i32)
// CHECK-NEXT:   ^else:
// CHECK-NEXT:     cf.br ^end(%x : i32)
// CHECK-NEXT:   ^end(%fy: i32):
// CHECK-NEXT:     func.return %fy : i32
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func private @declared(f32) -> f32
// CHECK-NEXT: }
