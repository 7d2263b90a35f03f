// Streams by hand (after MimIR's lit/gpu/manual_streams): two streams, each created in a host
// slot with gpu.stream_init and loaded from it. On each stream, asynchronously: allocate device
// memory, copy main's argument over, launch a kernel that stores 42 there, copy it back and free
// the device memory. Then wait for both streams and destroy them. main returns 42 + 42 = 84.
//
//   gpu-opt examples/manual-streams.mlir -p gpu-pipeline

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

  // Two streams, each made in a host slot and loaded from it.
  %e0, %slot1 = mem.alloc %m0 : !mem.ptr<!gpu.stream, 0>
  %f0, %slot2 = mem.alloc %e0 : !mem.ptr<!gpu.stream, 0>
  %g0, %g1 = gpu.stream_init %f0, %m1, %slot1
  %h0, %h1 = gpu.stream_init %g0, %g1, %slot2
  %i0, %s1 = mem.load %h0, %slot1 : !mem.ptr<!gpu.stream, 0>
  %j0, %s2 = mem.load %i0, %slot2 : !mem.ptr<!gpu.stream, 0>

  // Allocate and copy over, on each stream.
  %a1, %dev1 = gpu.alloc.asyn %h1 on %s1 : !mem.ptr<i32, 1>
  %k0, %b1 = gpu.copy_to_device.asyn %j0, %a1, %ptr1 -> %dev1 on %s1 : !mem.ptr<i32, 0> -> !mem.ptr<i32, 1>
  %c1, %dev2 = gpu.alloc.asyn %b1 on %s2 : !mem.ptr<i32, 1>
  %l0, %d1 = gpu.copy_to_device.asyn %k0, %c1, %ptr2 -> %dev2 on %s2 : !mem.ptr<i32, 0> -> !mem.ptr<i32, 1>

  // One launch per stream.
  %four = arith.constant 4 : index
  %n0, %n1, %n4 = gpu.launch @kernel grid(%four, %four) stream(%s1) mems(%l0, %d1, %m4)
      args(%dev1) : (!mem.ptr<i32, 1>)
  %o0, %o1, %o4 = gpu.launch @kernel grid(%four, %four) stream(%s2) mems(%n0, %n1, %n4)
      args(%dev2) : (!mem.ptr<i32, 1>)

  // Copy back and free, on each stream; then wait for both and destroy them.
  %p0, %p1 = gpu.copy_to_host.asyn %o0, %o1, %dev1 -> %ptr1 on %s1 : !mem.ptr<i32, 1> -> !mem.ptr<i32, 0>
  %q0, %q1 = gpu.copy_to_host.asyn %p0, %p1, %dev2 -> %ptr2 on %s2 : !mem.ptr<i32, 1> -> !mem.ptr<i32, 0>
  %r1 = gpu.free.asyn %q1, %dev1 on %s1 : !mem.ptr<i32, 1>
  %t1 = gpu.free.asyn %r1, %dev2 on %s2 : !mem.ptr<i32, 1>
  %u0, %u1 = gpu.stream_sync %q0, %t1, %s1
  %v0, %v1 = gpu.stream_sync %u0, %u1, %s2
  %w0, %w1 = gpu.stream_deinit %v0, %v1, %s1
  %y0, %y1 = gpu.stream_deinit %w0, %w1, %s2
  %z0 = mem.free %y0, %slot1 : !mem.ptr<!gpu.stream, 0>
  %z1 = mem.free %z0, %slot2 : !mem.ptr<!gpu.stream, 0>
  %closed = gpu.deinit %z1, %y1, %o4

  %aa0, %val1 = mem.load %closed, %ptr1 : !mem.ptr<i32, 0>
  %bb0, %val2 = mem.load %aa0, %ptr2 : !mem.ptr<i32, 0>
  %cc0 = mem.free %bb0, %ptr1 : !mem.ptr<i32, 0>
  %done = mem.free %cc0, %ptr2 : !mem.ptr<i32, 0>
  %sum = arith.addi %val1, %val2 : i32
  func.return %done, %sum : !mem.M<0>, i32
}
