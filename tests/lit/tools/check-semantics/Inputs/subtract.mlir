func.func @main(%m: !mem.M<0>, %x: i32) -> (!mem.M<0>, i32) {
  %one = arith.constant 1 : i32
  %r = arith.subi %x, %one : i32
  func.return %m, %r : !mem.M<0>, i32
}
