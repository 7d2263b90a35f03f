// `y[i] = a * x[i] + y[i]` for `i = group * n_items + item`, guarded by `i < n`. Its arguments
// after the ids: `n_items` (the work-items per group), `n`, `a`, `x`, `y`. Shared as it is by
// the benchmarks (benchmarks/kernels.py) and the tests (tests/kernels.py).
func.func @saxpy(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
                 %group: index, %item: index, %n_items: index, %n: index, %a: f32,
                 %x: !mem.ptr<!mem.array<? x f32>, 1>, %y: !mem.ptr<!mem.array<? x f32>, 1>)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) attributes {gpu.kernel} {
  %base = arith.muli %group, %n_items : index
  %i = arith.addi %base, %item : index
  %inside = arith.cmpi ult, %i, %n : index
  %r1 = scf.if %inside -> (!mem.M<1>) {
    %px = mem.lea %x, %i : !mem.ptr<!mem.array<? x f32>, 1>
    %py = mem.lea %y, %i : !mem.ptr<!mem.array<? x f32>, 1>
    %a1, %vx = mem.load %m1, %px : !mem.ptr<f32, 1>
    %b1, %vy = mem.load %a1, %py : !mem.ptr<f32, 1>
    %ax = arith.mulf %a, %vx : f32
    %s = arith.addf %ax, %vy : f32
    %c1 = mem.store %b1, %py, %s : !mem.ptr<f32, 1>
    scf.yield %c1 : !mem.M<1>
  } else {
    scf.yield %m1 : !mem.M<1>
  }
  func.return %r1, %m3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}
