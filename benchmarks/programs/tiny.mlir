// `x[item] = a`: the launch path's kernel (one pointer and one f32 argument), shared as it is by
// benchmarks/launch.py and tests/test_launch_allocations.py.
func.func @tiny(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
                %group: index, %item: index, %x: !mem.ptr<!mem.array<? x f32>, 1>, %a: f32)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) attributes {gpu.kernel} {
  %p = mem.lea %x, %item : !mem.ptr<!mem.array<? x f32>, 1>
  %n1 = mem.store %m1, %p, %a : !mem.ptr<f32, 1>
  func.return %n1, %m3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}
