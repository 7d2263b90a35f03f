func.func @main(%m: !mem.M<0>, %x: f32) -> (!mem.M<0>, f32) {
  %a = arith.constant 0.1 : f32
  %b = arith.constant 0.7 : f32
  %s = arith.addf %x, %a : f32
  %t = arith.addf %s, %b : f32
  func.return %m, %t : !mem.M<0>, f32
}
