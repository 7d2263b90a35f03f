func.func @main(%m: !mem.M<0>, %x: i32) -> (!mem.M<0>, i32) {
  %zero = arith.constant 0 : i32
  %positive = arith.cmpi sgt, %x, %zero : i32
  %r = scf.if %positive -> (i32) {
    %one = arith.constant 1 : i32
    scf.yield %one : i32
  } else {
    %two = arith.constant 2 : i32
    scf.yield %two : i32
  }
  func.return %m, %r : !mem.M<0>, i32
}
