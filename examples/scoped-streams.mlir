// Scoped streams (after MimIR's lit/gpu/scope_streams): gpu.with_streams creates two streams,
// runs its region with them and destroys them afterwards (waiting for their work, with no other
// implicit sync). Inside, on each stream: gpu.alloc_copy.asyn of main's argument, a launch of a
// kernel that stores 42 there, the copy back and the free. main returns 42 + 42 = 84.
// expand-gpu-composites turns gpu.with_streams and gpu.alloc_copy.asyn into their definitions.
//
//   gpu-opt examples/scoped-streams.mlir -p gpu-pipeline

func.func @kernel(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
                  %group: index, %item: index, %data: !mem.ptr<i32, 1>)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
  %c42 = arith.constant 42 : i32
  %a1 = mem.store %m1, %data, %c42 : !mem.ptr<i32, 1>
  func.return %a1, %m3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}

func.func @main(%m: !mem.M<0>, %x: i32) -> (!mem.M<0>, i32) {
  %a0, %ptr1 = mem.alloc %m : !mem.ptr<i32, 0>
  %b0, %ptr2 = mem.alloc %a0 : !mem.ptr<i32, 0>
  %c0 = mem.store %b0, %ptr1, %x : !mem.ptr<i32, 0>
  %d0 = mem.store %c0, %ptr2, %x : !mem.ptr<i32, 0>
  %m0, %m1, %m4 = gpu.init %d0
  %four = arith.constant 4 : index
  %e0, %e1 = gpu.with_streams %m0, %m1 count 2 {
  ^bb0(%s0: !mem.M<0>, %s1: !mem.M<1>, %stream1: !gpu.stream, %stream2: !gpu.stream):
    %f0, %f1, %dev1 = gpu.alloc_copy.asyn %s0, %s1, %ptr1 on %stream1 : !mem.ptr<i32, 0> -> !mem.ptr<i32, 1>
    %g0, %g1, %dev2 = gpu.alloc_copy.asyn %f0, %f1, %ptr2 on %stream2 : !mem.ptr<i32, 0> -> !mem.ptr<i32, 1>
    %h0, %h1, %h4 = gpu.launch @kernel grid(%four, %four) stream(%stream1) mems(%g0, %g1, %m4)
        args(%dev1) : (!mem.ptr<i32, 1>)
    %i0, %i1, %i4 = gpu.launch @kernel grid(%four, %four) stream(%stream2) mems(%h0, %h1, %h4)
        args(%dev2) : (!mem.ptr<i32, 1>)
    %j0, %j1 = gpu.copy_to_host.asyn %i0, %i1, %dev1 -> %ptr1 on %stream1 : !mem.ptr<i32, 1> -> !mem.ptr<i32, 0>
    %k0, %k1 = gpu.copy_to_host.asyn %j0, %j1, %dev2 -> %ptr2 on %stream2 : !mem.ptr<i32, 1> -> !mem.ptr<i32, 0>
    %l1 = gpu.free.asyn %k1, %dev1 on %stream1 : !mem.ptr<i32, 1>
    %n1 = gpu.free.asyn %l1, %dev2 on %stream2 : !mem.ptr<i32, 1>
    gpu.yield %k0, %n1 : !mem.M<0>, !mem.M<1>
  }
  %closed = gpu.deinit %e0, %e1, %m4
  %o0, %val1 = mem.load %closed, %ptr1 : !mem.ptr<i32, 0>
  %p0, %val2 = mem.load %o0, %ptr2 : !mem.ptr<i32, 0>
  %q0 = mem.free %p0, %ptr1 : !mem.ptr<i32, 0>
  %done = mem.free %q0, %ptr2 : !mem.ptr<i32, 0>
  %sum = arith.addi %val1, %val2 : i32
  func.return %done, %sum : !mem.M<0>, i32
}
