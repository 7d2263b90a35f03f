// RUN: gpu-opt %s --parsing-diagnostics --split-input-file | filecheck %s

// One case per verifier rule of strided buffer types (checked as they are parsed).

// A layout may have '?' extents and a '?' offset (a dynamic view), but a negative offset ...
%b = "test.op"() : () -> !buffer.buf<?x4xf32, strided<[4, 1], offset: -1>>

// CHECK: !buffer.buf layout strides must be static and >= 0, and its offset ? or >= 0, found strided<[4, 1], offset: -1>

// -----

// ... one stride per dimension ...
%b = "test.op"() : () -> !buffer.buf<2x4xf32, strided<[1]>>

// CHECK: !buffer.buf layout strided<[1]> needs 2 strides (one per dimension), found 1

// -----

// ... static strides ...
%b = "test.op"() : () -> !buffer.buf<2x4xf32, strided<[?, 1]>>

// CHECK: !buffer.buf layout strides must be static and >= 0, and its offset ? or >= 0, found strided<[?, 1]>

// -----

// ... and no negative one.
%b = "test.op"() : () -> !buffer.buf<2x4xf32, strided<[-4, 1], offset: 4>>

// CHECK: !buffer.buf layout strides must be static and >= 0, and its offset ? or >= 0, found strided<[-4, 1], offset: 4>
