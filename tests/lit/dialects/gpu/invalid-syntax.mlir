// RUN: gpu-opt %s --parsing-diagnostics --split-input-file | filecheck %s

// Errors in the custom syntax of gpu ops.

// gpu.launch names its kernel by a symbol ...
%n, %s, %m0, %m1, %m4 = "test.op"() : () -> (index, !gpu.stream, !mem.M<0>, !mem.M<1>, !mem.M<4>)
%l0, %l1, %l4 = gpu.launch "k" grid(%n, %n) stream(%s) mems(%m0, %m1, %m4)

// CHECK: 'gpu.launch' expects a kernel symbol, found "k"

// -----

// ... gives one type per argument ...
%n, %s, %m0, %m1, %m4, %x = "test.op"() : () -> (index, !gpu.stream, !mem.M<0>, !mem.M<1>, !mem.M<4>, i32)
%l0, %l1, %l4 = gpu.launch @k grid(%n, %n) stream(%s) mems(%m0, %m1, %m4) args(%x, %x) : (i32)

// CHECK: 'gpu.launch' has 2 arguments but 1 types

// -----

// ... and threads the host, global and const tokens, in this order.
%n, %s, %m0, %m1, %m4 = "test.op"() : () -> (index, !gpu.stream, !mem.M<0>, !mem.M<1>, !mem.M<4>)
%l0, %l1, %l4 = gpu.launch @k grid(%n, %n) stream(%s) mems(%m0, %m4, %m1)

// CHECK: operand is used with type !mem.M<1>, but has been previously used or defined with type !mem.M<4>

// -----

// The count of gpu.with_streams is not negative.
%m0, %m1 = "test.op"() : () -> (!mem.M<0>, !mem.M<1>)
%w0, %w1 = gpu.with_streams %m0, %m1 count -1 {
^bb0(%x0: !mem.M<0>, %x1: !mem.M<1>):
  gpu.yield %x0, %x1 : !mem.M<0>, !mem.M<1>
}

// CHECK: Expected integer literal

// -----

// A collective's kind is a string.
%m1, %m3, %v = "test.op"() : () -> (!mem.M<1>, !mem.M<3>, f32)
%a1, %a3, %r = gpu.workgroup_reduce add %m1, %m3, %v : f32

// CHECK: string literal expected for the collective kind
