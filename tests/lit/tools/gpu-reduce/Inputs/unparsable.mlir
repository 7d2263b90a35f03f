func.func @main(%m: !mem.M<0>) -> (!mem.M<0>, i32) {
  %x = arith.constant 1 : i32
  func.return %m, %y : !mem.M<0>, i32
}
