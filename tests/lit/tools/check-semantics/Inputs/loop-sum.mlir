func.func @main(%m: !mem.M<0>, %n: index) -> (!mem.M<0>, index) {
  %zero = arith.constant 0 : index
  %one = arith.constant 1 : index
  %sum = scf.for %i = %zero to %n step %one iter_args(%acc = %zero) -> (index) {
    %next = arith.addi %acc, %i : index
    scf.yield %next : index
  }
  func.return %m, %sum : !mem.M<0>, index
}
