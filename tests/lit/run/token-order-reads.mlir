// interp's token-order check: reads that share a token are fine, and so is a write on one side
// of the fork to memory the other side does not touch. Both loads read 5 (the store before the
// fork); the store after the first load writes another slot.
// -p '': check-tokens (in gpu-pipeline) proves these accesses touch the same bytes and
// refuses the program before it runs.
// RUN: gpu-run %s --provider interp -p '' | filecheck %s

func.func @main(%t: !mem.M<0>) -> (!mem.M<0>, i32) {
  %t0, %p = mem.slot %t : !mem.ptr<i32, 0>
  %t1, %q = mem.slot %t0 : !mem.ptr<i32, 0>
  %five = arith.constant 5 : i32
  %t2 = mem.store %t1, %p, %five : !mem.ptr<i32, 0>
  %a, %x = mem.load %t2, %p : !mem.ptr<i32, 0>
  %b, %y = mem.load %t2, %p : !mem.ptr<i32, 0>
  %c = mem.store %a, %q, %five : !mem.ptr<i32, 0>
  %sum = arith.addi %x, %y : i32
  func.return %c, %sum : !mem.M<0>, i32
}

// CHECK: 10
