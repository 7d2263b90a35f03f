// RUN: gpu-opt %s -p erase-mem-tokens --split-input-file | filecheck %s

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
