// RUN: gpu-opt %s --verify-diagnostics --split-input-file

// One case per verifier rule of the buffer dialect.

// buffer.alloc takes one extent per '?' ...
%m0 = "test.op"() : () -> !mem.M<0>
// expected-error @below {{'buffer.alloc' of !buffer.buf<4x?xf32> expects 1 extent operands (one per '?'), found 0}}
%a0, %b = buffer.alloc %m0 : !buffer.buf<4x?xf32>


// -----

// ... and none for a static shape ...
%m0, %n = "test.op"() : () -> (!mem.M<0>, index)
// expected-error @below {{'buffer.alloc' of !buffer.buf<4x8xf32> expects 0 extent operands (one per '?'), found 1}}
%a0, %b = buffer.alloc %m0(%n) : !buffer.buf<4x8xf32>


// -----

// ... each of them an index.
%m0, %n = "test.op"() : () -> (!mem.M<0>, i64)
// expected-error @below {{operand 'extents' at position 1 does not verify:}}
%a0, %b = "buffer.alloc"(%m0, %n) : (!mem.M<0>, i64) -> (!mem.M<0>, !buffer.buf<?xf32>)


// -----

// Buffers live in host memory.
%m1 = "test.op"() : () -> !mem.M<1>
// expected-error @below {{operand 'mem' at position 0 does not verify:}}
%a0, %b = "buffer.alloc"(%m1) : (!mem.M<1>) -> (!mem.M<0>, !buffer.buf<4xf32>)


// -----

// buffer.lit makes a buffer of static shape ...
%m0, %v = "test.op"() : () -> (!mem.M<0>, f32)
// expected-error @below {{'buffer.lit' needs a buffer of static shape, found !buffer.buf<?xf32>}}
%a0, %b = buffer.lit %m0, %v : f32 -> !buffer.buf<?xf32>


// -----

// ... from a value of its element type.
%m0, %v = "test.op"() : () -> (!mem.M<0>, f32)
// expected-error @below {{'buffer.lit' expects a value of the element type f64, found f32}}
%a0, %b = buffer.lit %m0, %v : f32 -> !buffer.buf<4xf64>


// -----

// buffer.init makes a buffer of static shape ...
%m0 = "test.op"() : () -> !mem.M<0>
// expected-error @below {{'buffer.init' needs a buffer of static shape, found !buffer.buf<?xi32>}}
%a0, %b = "buffer.init"(%m0) <{value = dense<1> : tensor<2xi32>}> : (!mem.M<0>) -> (!mem.M<0>, !buffer.buf<?xi32>)


// -----

// ... from a tensor of its shape ...
%m0 = "test.op"() : () -> !mem.M<0>
// expected-error @below {{'buffer.init' of !buffer.buf<3xi32> expects its value to be typed tensor<3xi32>, found tensor<2xi32>}}
%a0, %b = "buffer.init"(%m0) <{value = dense<1> : tensor<2xi32>}> : (!mem.M<0>) -> (!mem.M<0>, !buffer.buf<3xi32>)


// -----

%m0 = "test.op"() : () -> !mem.M<0>
// expected-error @below {{'buffer.init' of !buffer.buf<2xi64> expects its value to be typed tensor<2xi64>, found tensor<2xi32>}}
%a0, %b = "buffer.init"(%m0) <{value = dense<1> : tensor<2xi32>}> : (!mem.M<0>) -> (!mem.M<0>, !buffer.buf<2xi64>)


// -----

// ... (not a vector) ...
%m0 = "test.op"() : () -> !mem.M<0>
// expected-error @below {{'buffer.init' of !buffer.buf<2xi32> expects its value to be typed tensor<2xi32>, found vector<2xi32>}}
%a0, %b = "buffer.init"(%m0) <{value = dense<1> : vector<2xi32>}> : (!mem.M<0>) -> (!mem.M<0>, !buffer.buf<2xi32>)


// -----

// ... given as dense elements.
%m0 = "test.op"() : () -> !mem.M<0>
// expected-error @below {{1 : i32 should be of base attribute dense}}
%a0, %b = "buffer.init"(%m0) <{value = 1 : i32}> : (!mem.M<0>) -> (!mem.M<0>, !buffer.buf<i32>)


// -----

// buffer.read takes one index per dimension ...
%m0, %b, %i = "test.op"() : () -> (!mem.M<0>, !buffer.buf<4x4xf32>, index)
// expected-error @below {{'buffer.read' of !buffer.buf<4x4xf32> expects 2 indices (its rank), found 1}}
%a0, %v = buffer.read %m0, %b[%i] : !buffer.buf<4x4xf32>


// -----

// ... and gives an element.
%m0, %b, %i = "test.op"() : () -> (!mem.M<0>, !buffer.buf<4xf32>, index)
// expected-error @below {{'buffer.read' expects its result to be the element type f32, found f64}}
%a0, %v = "buffer.read"(%m0, %b, %i) : (!mem.M<0>, !buffer.buf<4xf32>, index) -> (!mem.M<0>, f64)


// -----

// buffer.write takes one index per dimension ...
%m0, %b, %i, %v = "test.op"() : () -> (!mem.M<0>, !buffer.buf<4xf32>, index, f32)
// expected-error @below {{'buffer.write' of !buffer.buf<4xf32> expects 1 indices (its rank), found 2}}
%a0, %c = buffer.write %m0, %b[%i, %i], %v : !buffer.buf<4xf32>


// -----

// ... and an element ...
%m0, %b, %i, %v = "test.op"() : () -> (!mem.M<0>, !buffer.buf<4xf32>, index, f64)
// expected-error @below {{'buffer.write' expects a value of the element type f32, found f64}}
%a0, %c = "buffer.write"(%m0, %b, %i, %v) : (!mem.M<0>, !buffer.buf<4xf32>, index, f64) -> (!mem.M<0>, !buffer.buf<4xf32>)


// -----

// ... and gives back the same buffer.
%m0, %b, %i, %v = "test.op"() : () -> (!mem.M<0>, !buffer.buf<4xf32>, index, f32)
// expected-error @below {{result 'res' at position 1 does not verify:}}
%a0, %c = "buffer.write"(%m0, %b, %i, %v) : (!mem.M<0>, !buffer.buf<4xf32>, index, f32) -> (!mem.M<0>, !buffer.buf<5xf32>)


// -----

// buffer.shape names one of the buffer's dimensions.
%b = "test.op"() : () -> !buffer.buf<4xf32>
// expected-error @below {{'buffer.shape' expects dim in [0, 1) for !buffer.buf<4xf32>, found 1}}
%s = buffer.shape %b[1] : !buffer.buf<4xf32>


// -----

%b = "test.op"() : () -> !buffer.buf<4x?xf32>
// expected-error @below {{'buffer.shape' expects dim in [0, 2) for !buffer.buf<4x?xf32>, found -1}}
%s = buffer.shape %b[-1] : !buffer.buf<4x?xf32>


// -----

// A rank-0 buffer has none.
%b = "test.op"() : () -> !buffer.buf<f32>
// expected-error @below {{'buffer.shape' expects dim in [0, 0) for !buffer.buf<f32>, found 0}}
%s = buffer.shape %b[0] : !buffer.buf<f32>


// -----

%b = "test.op"() : () -> i32
// expected-error @below {{operand 'buf' at position 0 does not verify:}}
%s = buffer.shape %b[0] : i32


// -----

%b = "test.op"() : () -> !buffer.buf<4xf32>
// expected-error @below {{Expected attribute i64 but got i32}}
%s = "buffer.shape"(%b) <{dim = 0 : i32}> : (!buffer.buf<4xf32>) -> index


// -----

// buffer.copy copies between buffers of one shape and element type ...
%m0, %b, %c = "test.op"() : () -> (!mem.M<0>, !buffer.buf<4xf32>, !buffer.buf<4xf64>)
// expected-error @below {{'buffer.copy' expects a source of the destination's shape and element type, found !buffer.buf<4xf64> into !buffer.buf<4xf32>}}
%a0 = "buffer.copy"(%m0, %b, %c) : (!mem.M<0>, !buffer.buf<4xf32>, !buffer.buf<4xf64>) -> !mem.M<0>


// -----

// ... whatever their layouts.
%m0, %b, %c = "test.op"() : () -> (!mem.M<0>, !buffer.buf<4x2xf32>, !buffer.buf<2x4xf32, strided<[1, 2]>>)
// expected-error @below {{'buffer.copy' expects a source of the destination's shape and element type, found !buffer.buf<2x4xf32, strided<[1, 2]>> into !buffer.buf<4x2xf32>}}
%a0 = buffer.copy %m0, %b, %c : !buffer.buf<4x2xf32>, !buffer.buf<2x4xf32, strided<[1, 2]>>


// -----

// buffer.print prints a buffer.
%m0, %p = "test.op"() : () -> (!mem.M<0>, !mem.ptr<f32, 0>)
// expected-error @below {{operand 'buf' at position 1 does not verify:}}
%a0 = "buffer.print"(%m0, %p) : (!mem.M<0>, !mem.ptr<f32, 0>) -> !mem.M<0>
