// The program of docs/debugging-passes.md: two kernels, one multiplies by 8, one by 0.
func.func @scale(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
                 %g: index, %i: index, %x: !mem.ptr<!mem.array<? x i32>, 1>)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
  %p = mem.lea %x, %i : !mem.ptr<!mem.array<? x i32>, 1>
  %n1, %v = mem.load %m1, %p : !mem.ptr<i32, 1>
  %eight = arith.constant 8 : i32
  %w = arith.muli %v, %eight : i32
  %n2 = mem.store %n1, %p, %w : !mem.ptr<i32, 1>
  func.return %n2, %m3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}

func.func @clear(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
                 %g: index, %i: index, %x: !mem.ptr<!mem.array<? x i32>, 1>)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
  %p = mem.lea %x, %i : !mem.ptr<!mem.array<? x i32>, 1>
  %n1, %v = mem.load %m1, %p : !mem.ptr<i32, 1>
  %zero = arith.constant 0 : i32
  %w = arith.muli %v, %zero : i32
  %n2 = mem.store %n1, %p, %w : !mem.ptr<i32, 1>
  func.return %n2, %m3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}
