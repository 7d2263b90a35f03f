// RUN: gpu-opt %s --verify-diagnostics --split-input-file

// One case per verifier rule of the view ops.

// buffer.alloc, buffer.lit and buffer.init make dense buffers.
%m0 = "test.op"() : () -> !mem.M<0>
// expected-error @below {{'buffer.alloc' makes a dense buffer, found the view type !buffer.buf<2x4xf32, strided<[1, 2]>>}}
%a0, %b = buffer.alloc %m0 : !buffer.buf<2x4xf32, strided<[1, 2]>>


// -----

%m0, %f = "test.op"() : () -> (!mem.M<0>, f32)
// expected-error @below {{'buffer.lit' makes a dense buffer, found the view type !buffer.buf<4xf32, strided<[2]>>}}
%a0, %b = buffer.lit %m0, %f : f32 -> !buffer.buf<4xf32, strided<[2]>>


// -----

// A view's source has a static shape.
%a = "test.op"() : () -> !buffer.buf<?x4xf32>
// expected-error @below {{'buffer.transpose' needs a source of static shape, found !buffer.buf<?x4xf32>}}
%t = buffer.transpose %a [1, 0] : !buffer.buf<?x4xf32> to !buffer.buf<4x?xf32>


// -----

// The result type is the one the view computes.
%a = "test.op"() : () -> !buffer.buf<4x6xf32>
// expected-error @below {{'buffer.transpose' expects the result type !buffer.buf<6x4xf32, strided<[1, 6]>>, found !buffer.buf<6x4xf32>}}
%t = buffer.transpose %a [1, 0] : !buffer.buf<4x6xf32> to !buffer.buf<6x4xf32>


// -----

%a = "test.op"() : () -> !buffer.buf<4x6xf32>
// expected-error @below {{'buffer.transpose' expects a permutation of [0, 2) (the source's rank), found [0, 0]}}
%t = buffer.transpose %a [0, 0] : !buffer.buf<4x6xf32> to !buffer.buf<4x4xf32, strided<[6, 6]>>


// -----

// buffer.subview: one offset, size and stride per dimension ...
%a = "test.op"() : () -> !buffer.buf<4x6xf32>
// expected-error @below {{'buffer.subview' expects 2 offsets (the source's rank), found 1}}
%s = buffer.subview %a[0] [4, 6] [1, 1] : !buffer.buf<4x6xf32> to !buffer.buf<4x6xf32>


// -----

// ... strides of at least 1 ...
%a = "test.op"() : () -> !buffer.buf<4x6xf32>
// expected-error @below {{'buffer.subview' expects offsets >= 0, sizes >= 0 and strides >= 1, found offset 0, size 6, stride 0 in dimension 1}}
%s = buffer.subview %a[0, 0] [4, 6] [1, 0] : !buffer.buf<4x6xf32> to !buffer.buf<4x6xf32, strided<[6, 0]>>


// -----

// ... inside the source.
%a = "test.op"() : () -> !buffer.buf<4x6xf32>
// expected-error @below {{'buffer.subview' reaches index 4 of dimension 0, outside the source's extent 4}}
%s = buffer.subview %a[1, 1] [4, 3] [1, 2] : !buffer.buf<4x6xf32> to !buffer.buf<4x3xf32, strided<[6, 2], offset: 7>>


// -----

// buffer.broadcast follows numpy's rules: not to a smaller rank ...
%a = "test.op"() : () -> !buffer.buf<4x6xf32>
// expected-error @below {{'buffer.broadcast' cannot broadcast !buffer.buf<4x6xf32> to the smaller rank 1}}
%b = buffer.broadcast %a : !buffer.buf<4x6xf32> to !buffer.buf<6xf32>


// -----

// ... an extent only to itself or from 1 ...
%a = "test.op"() : () -> !buffer.buf<4x6xf32>
// expected-error @below {{'buffer.broadcast' cannot broadcast extent 6 of !buffer.buf<4x6xf32> to 12 (an extent broadcasts to itself, or from 1)}}
%b = buffer.broadcast %a : !buffer.buf<4x6xf32> to !buffer.buf<4x12xf32, strided<[6, 0]>>


// -----

// ... to a static shape.
%a = "test.op"() : () -> !buffer.buf<6xf32>
// expected-error @below {{'buffer.broadcast' needs a result of static shape, found !buffer.buf<?x6xf32>}}
%b = buffer.broadcast %a : !buffer.buf<6xf32> to !buffer.buf<?x6xf32>


// -----

// buffer.view: of a dense buffer's storage ...
%a = "test.op"() : () -> !buffer.buf<6x4xf32, strided<[1, 6]>>
// expected-error @below {{'buffer.view' views the storage of a dense buffer, found the view !buffer.buf<6x4xf32, strided<[1, 6]>>}}
%v = buffer.view %a : !buffer.buf<6x4xf32, strided<[1, 6]>> to !buffer.buf<24xf32>


// -----

// ... with its element type ...
%a = "test.op"() : () -> !buffer.buf<4x6xf32>
// expected-error @below {{'buffer.view' expects the element type f32, found i32}}
%v = buffer.view %a : !buffer.buf<4x6xf32> to !buffer.buf<24xi32>


// -----

// ... of a static shape ...
%a = "test.op"() : () -> !buffer.buf<4x6xf32>
// expected-error @below {{'buffer.view' needs a result of static shape and layout, found !buffer.buf<?xf32>}}
%v = buffer.view %a : !buffer.buf<4x6xf32> to !buffer.buf<?xf32>


// -----

// ... inside the storage.
%a = "test.op"() : () -> !buffer.buf<4x6xf32>
// expected-error @below {{'buffer.view' reaches element 25 of the storage of !buffer.buf<4x6xf32>, which has 24}}
%v = buffer.view %a : !buffer.buf<4x6xf32> to !buffer.buf<3x2xf32, strided<[10, 2], offset: 3>>


// -----

// Dynamic subviews: the result type has '?' exactly where the entries are dynamic ...
%a = "test.op"() : () -> !buffer.buf<4x6xf32>
%i = "test.op"() : () -> index
// expected-error @below {{'buffer.subview' expects the result type !buffer.buf<1x6xf32, strided<[6, 1], offset: ?>>, found !buffer.buf<1x6xf32, strided<[6, 1], offset: 6>>}}
%s = buffer.subview %a[%i, 0] [1, 6] [1, 1] : !buffer.buf<4x6xf32> to !buffer.buf<1x6xf32, strided<[6, 1], offset: 6>>


// -----

// ... a dynamic size gives a '?' extent ...
%a = "test.op"() : () -> !buffer.buf<4x6xf32>
%n = "test.op"() : () -> index
// expected-error @below {{'buffer.subview' expects the result type !buffer.buf<4x?xf32, strided<[6, 1]>>, found !buffer.buf<4x6xf32>}}
%s = buffer.subview %a[0, 0] [4, %n] [1, 1] : !buffer.buf<4x6xf32> to !buffer.buf<4x6xf32, strided<[6, 1]>>


// -----

// ... (static entries still checked against the source) ...
%a = "test.op"() : () -> !buffer.buf<4x6xf32>
%i = "test.op"() : () -> index
// expected-error @below {{'buffer.subview' reaches index 6 of dimension 1, outside the source's extent 6}}
%s = buffer.subview %a[%i, 5] [1, 2] [1, 1] : !buffer.buf<4x6xf32> to !buffer.buf<1x2xf32, strided<[6, 1], offset: ?>>


// -----

// ... one operand per dynamic entry (generic form) ...
%a = "test.op"() : () -> !buffer.buf<4x6xf32>
%i = "test.op"() : () -> index
// expected-error @below {{'buffer.subview' expects 2 offsets operands (one per dynamic entry of static_offsets), found 1}}
%s = "buffer.subview"(%a, %i) <{static_offsets = array<i64: -9223372036854775808, -9223372036854775808>, static_sizes = array<i64: 1, 6>, static_strides = array<i64: 1, 1>, operandSegmentSizes = array<i32: 1, 1, 0>}> : (!buffer.buf<4x6xf32>, index) -> !buffer.buf<1x6xf32, strided<[6, 1], offset: ?>>


// -----

// ... static strides ...
%a = "test.op"() : () -> !buffer.buf<4x6xf32>
// expected-error @below {{'buffer.subview' needs static strides (no '?' stride)}}
%s = "buffer.subview"(%a) <{static_offsets = array<i64: 0, 0>, static_sizes = array<i64: 4, 6>, static_strides = array<i64: 1, -9223372036854775808>, operandSegmentSizes = array<i32: 1, 0, 0>}> : (!buffer.buf<4x6xf32>) -> !buffer.buf<4x6xf32>


// -----

// ... and a dense source of static shape.
%a = "test.op"() : () -> !buffer.buf<?x6xf32>
%i = "test.op"() : () -> index
// expected-error @below {{'buffer.subview' needs a source of static shape, found !buffer.buf<?x6xf32>}}
%s = buffer.subview %a[%i, 0] [1, 6] [1, 1] : !buffer.buf<?x6xf32> to !buffer.buf<1x6xf32, strided<[6, 1], offset: ?>>


// -----

// Only buffer.subview and buffer.transpose take a dynamic view: not buffer.broadcast ...
%a = "test.op"() : () -> !buffer.buf<1x6xf32, strided<[6, 1], offset: ?>>
// expected-error @below {{'buffer.broadcast' needs a source of static layout, found the dynamic view !buffer.buf<1x6xf32, strided<[6, 1], offset: ?>>}}
%b = buffer.broadcast %a : !buffer.buf<1x6xf32, strided<[6, 1], offset: ?>> to !buffer.buf<4x6xf32, strided<[0, 1], offset: ?>>


// -----

// ... and buffer.view makes no dynamic view.
%a = "test.op"() : () -> !buffer.buf<24xf32>
// expected-error @below {{'buffer.view' needs a result of static shape and layout, found !buffer.buf<2x3xf32, strided<[3, 1], offset: ?>>}}
%v = buffer.view %a : !buffer.buf<24xf32> to !buffer.buf<2x3xf32, strided<[3, 1], offset: ?>>
