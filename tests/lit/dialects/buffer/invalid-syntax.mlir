// RUN: gpu-opt %s --parsing-diagnostics --split-input-file | filecheck %s

// Errors in the custom syntax of buffer types and ops.

// An extent is a number or '?'.
%b = "test.op"() : () -> !buffer.buf<4x-1xf32>

// CHECK: Expected shape type.

// -----

// buffer.init takes a dense tensor literal ...
%m0 = "test.op"() : () -> !mem.M<0>
%a0, %b = buffer.init %m0 dense<1> : vector<2xi32>

// CHECK: 'buffer.init' expects a dense tensor literal, found dense<1> : vector<2xi32>

// -----

%m0 = "test.op"() : () -> !mem.M<0>
%a0, %b = buffer.init %m0 1 : i32

// CHECK: 'buffer.init' expects a dense tensor literal, found 1 : i32

// -----

// ... buffer.read and buffer.write name the buffer type.
%m0, %b, %i = "test.op"() : () -> (!mem.M<0>, !buffer.buf<4xf32>, index)
%a0, %v = buffer.read %m0, %b[%i] : f32

// CHECK: expected a !buffer.buf type, found f32

// -----

%m0, %b, %i, %v = "test.op"() : () -> (!mem.M<0>, !buffer.buf<4xf32>, index, f32)
%a0, %c = buffer.write %m0, %b[%i], %v : !mem.ptr<f32, 0>

// CHECK: expected a !buffer.buf type, found !mem.ptr<f32, 0>

// -----

// A buffer's layout is a strided one.
%b = "test.op"() : () -> !buffer.buf<4xf32, affine_map<(d0) -> (d0)>>

// CHECK: expected a strided layout (strided<[…], offset: …>), found affine_map<(d0) -> (d0)>
