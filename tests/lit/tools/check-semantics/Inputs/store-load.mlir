func.func @main(%m: !mem.M<0>, %x: i32) -> (!mem.M<0>, i32) {
  %a0, %p = mem.alloc %m : !mem.ptr<i32, 0>
  %seven = arith.constant 7 : i32
  %b0 = mem.store %a0, %p, %seven : !mem.ptr<i32, 0>
  %c0 = mem.store %b0, %p, %x : !mem.ptr<i32, 0>
  %d0, %v = mem.load %c0, %p : !mem.ptr<i32, 0>
  %e0 = mem.free %d0, %p : !mem.ptr<i32, 0>
  func.return %e0, %v : !mem.M<0>, i32
}
