// RUN: gpu-opt %s --verify-diagnostics --split-input-file

// One case per verifier rule of the mem dialect. The custom syntax derives every token type from
// the pointer type, so most of these cases are written in the generic form.

// mem.alloc of a dynamic array needs its extent ...
%m0 = "test.op"() : () -> !mem.M<0>
// expected-error @below {{'mem.alloc' allocates !mem.array<? x i32>, so it expects an extent operand, found none}}
%a, %p = "mem.alloc"(%m0) : (!mem.M<0>) -> (!mem.M<0>, !mem.ptr<!mem.array<? x i32>, 0>)


// -----

// ... and of anything else takes none.
%m0, %n = "test.op"() : () -> (!mem.M<0>, index)
// expected-error @below {{'mem.alloc' allocates !mem.array<4 x i32>, whose size is static, so it expects no extent operand, found one}}
%a, %p = "mem.alloc"(%m0, %n) : (!mem.M<0>, index) -> (!mem.M<0>, !mem.ptr<!mem.array<4 x i32>, 0>)


// -----

%m0, %n = "test.op"() : () -> (!mem.M<0>, index)
// expected-error @below {{'mem.alloc' allocates i32, whose size is static, so it expects no extent operand, found one}}
%a, %p = mem.alloc %m0, %n : !mem.ptr<i32, 0>


// -----

// The extent is an index.
%m0, %x = "test.op"() : () -> (!mem.M<0>, i32)
// expected-error @below {{operand 'extent' at position 1 does not verify:}}
%a, %p = "mem.alloc"(%m0, %x) : (!mem.M<0>, i32) -> (!mem.M<0>, !mem.ptr<!mem.array<? x i32>, 0>)


// -----

// An allocation's result is a pointer.
%m0 = "test.op"() : () -> !mem.M<0>
// expected-error @below {{result 'res' at position 1 does not verify:}}
%a, %p = "mem.alloc"(%m0) : (!mem.M<0>) -> (!mem.M<0>, i32)


// -----

// mem.slot has no extent operand, so it only allocates what has a static size.
%m3 = "test.op"() : () -> !mem.M<3>
// expected-error @below {{'mem.slot' expects a pointee of static size (it takes no extent operand), found !mem.array<? x f32>}}
%a, %p = mem.slot %m3 : !mem.ptr<!mem.array<? x f32>, 3>


// -----

// The token's address space is the pointer's: mem.malloc ...
%m0, %n = "test.op"() : () -> (!mem.M<0>, index)
// expected-error @below {{'mem.malloc' expects the token of the pointer's address space (!mem.M<1>), found !mem.M<0>}}
%a, %p = "mem.malloc"(%m0, %n) : (!mem.M<0>, index) -> (!mem.M<0>, !mem.ptr<i8, 1>)


// -----

// ... mem.alloc ...
%m1 = "test.op"() : () -> !mem.M<1>
// expected-error @below {{'mem.alloc' expects the token of the pointer's address space (!mem.M<0>), found !mem.M<1>}}
%a, %p = "mem.alloc"(%m1) : (!mem.M<1>) -> (!mem.M<1>, !mem.ptr<i32, 0>)


// -----

// ... mem.free ...
%m1, %p = "test.op"() : () -> (!mem.M<1>, !mem.ptr<i32, 0>)
// expected-error @below {{'mem.free' expects the token of the pointer's address space (!mem.M<0>), found !mem.M<1>}}
%f = "mem.free"(%m1, %p) : (!mem.M<1>, !mem.ptr<i32, 0>) -> !mem.M<1>


// -----

// ... mem.load ...
%m3, %p = "test.op"() : () -> (!mem.M<3>, !mem.ptr<i32, 1>)
// expected-error @below {{'mem.load' expects the token of the pointer's address space (!mem.M<1>), found !mem.M<3>}}
%l, %v = "mem.load"(%m3, %p) : (!mem.M<3>, !mem.ptr<i32, 1>) -> (!mem.M<3>, i32)


// -----

// ... and mem.store.
%m4, %p, %v = "test.op"() : () -> (!mem.M<4>, !mem.ptr<i32, 1>, i32)
// expected-error @below {{'mem.store' expects the token of the pointer's address space (!mem.M<1>), found !mem.M<4>}}
%s = "mem.store"(%m4, %p, %v) : (!mem.M<4>, !mem.ptr<i32, 1>, i32) -> !mem.M<4>


// -----

// The token result is the token operand's type: for the allocating ops ...
%m0, %n = "test.op"() : () -> (!mem.M<0>, index)
// expected-error @below {{'mem.mslot' expects its token result to be !mem.M<0>, found !mem.M<1>}}
%a, %p = "mem.mslot"(%m0, %n) : (!mem.M<0>, index) -> (!mem.M<1>, !mem.ptr<i8, 0>)


// -----

// ... for the accessing ones ...
%m1, %p = "test.op"() : () -> (!mem.M<1>, !mem.ptr<i32, 1>)
// expected-error @below {{'mem.free' expects its token result to be !mem.M<1>, found !mem.M<0>}}
%f = "mem.free"(%m1, %p) : (!mem.M<1>, !mem.ptr<i32, 1>) -> !mem.M<0>


// -----

%m1, %p, %v = "test.op"() : () -> (!mem.M<1>, !mem.ptr<i32, 1>, i32)
// expected-error @below {{'mem.store' expects its token result to be !mem.M<1>, found !mem.M<5>}}
%s = "mem.store"(%m1, %p, %v) : (!mem.M<1>, !mem.ptr<i32, 1>, i32) -> !mem.M<5>


// -----

// ... and for mem.remem.
%m = "test.op"() : () -> !mem.M<5>
// expected-error @below {{'mem.remem' expects its result to be !mem.M<5>, found !mem.M<3>}}
%r = "mem.remem"(%m) : (!mem.M<5>) -> !mem.M<3>


// -----

// Only a token is a token.
%x = "test.op"() : () -> i32
// expected-error @below {{operand 'mem' at position 0 does not verify:}}
%r = "mem.remem"(%x) : (i32) -> !mem.M<3>


// -----

// The loaded type is the pointee ...
%m1, %p = "test.op"() : () -> (!mem.M<1>, !mem.ptr<i32, 1>)
// expected-error @below {{'mem.load' expects the loaded type to be the pointee i32, found f32}}
%l, %v = "mem.load"(%m1, %p) : (!mem.M<1>, !mem.ptr<i32, 1>) -> (!mem.M<1>, f32)


// -----

// ... and never an array.
%m1, %p = "test.op"() : () -> (!mem.M<1>, !mem.ptr<!mem.array<4 x i32>, 1>)
// expected-error @below {{'mem.load' would load a value of type !mem.array<4 x i32>, but an array is only ever a pointee; address its elements with mem.lea}}
%l, %v = mem.load %m1, %p : !mem.ptr<!mem.array<4 x i32>, 1>


// -----

// The stored type is the pointee ...
%m1, %p, %v = "test.op"() : () -> (!mem.M<1>, !mem.ptr<i32, 1>, i64)
// expected-error @below {{'mem.store' expects the stored type to be the pointee i32, found i64}}
%s = "mem.store"(%m1, %p, %v) : (!mem.M<1>, !mem.ptr<i32, 1>, i64) -> !mem.M<1>


// -----

// ... and never an array.
%m1, %p, %v = "test.op"() : () -> (!mem.M<1>, !mem.ptr<!mem.array<4 x i32>, 1>, !mem.array<4 x i32>)
// expected-error @below {{'mem.store' would store a value of type !mem.array<4 x i32>, but an array is only ever a pointee; address its elements with mem.lea}}
%s = mem.store %m1, %p, %v : !mem.ptr<!mem.array<4 x i32>, 1>


// -----

// mem.lea addresses an element of an array ...
%p, %i = "test.op"() : () -> (!mem.ptr<i32, 1>, index)
// expected-error @below {{'mem.lea' expects a pointer to a !mem.array, found !mem.ptr<i32, 1>}}
%e = mem.lea %p, %i : !mem.ptr<i32, 1>


// -----

// ... in the array's address space ...
%p, %i = "test.op"() : () -> (!mem.ptr<!mem.array<4 x i32>, 1>, index)
// expected-error @below {{'mem.lea' expects its result to be !mem.ptr<i32, 1>, found !mem.ptr<i32, 0>}}
%e = "mem.lea"(%p, %i) : (!mem.ptr<!mem.array<4 x i32>, 1>, index) -> !mem.ptr<i32, 0>


// -----

// ... of the element type ...
%p, %i = "test.op"() : () -> (!mem.ptr<!mem.array<? x !mem.array<4 x i32>>, 1>, index)
// expected-error @below {{'mem.lea' expects its result to be !mem.ptr<!mem.array<4 x i32>, 1>, found !mem.ptr<i32, 1>}}
%e = "mem.lea"(%p, %i) : (!mem.ptr<!mem.array<? x !mem.array<4 x i32>>, 1>, index) -> !mem.ptr<i32, 1>


// -----

// ... at an index.
%p, %i = "test.op"() : () -> (!mem.ptr<!mem.array<4 x i32>, 1>, i32)
// expected-error @below {{operand 'index' at position 1 does not verify:}}
%e = "mem.lea"(%p, %i) : (!mem.ptr<!mem.array<4 x i32>, 1>, i32) -> !mem.ptr<i32, 1>


// -----

// mem.print_memref prints host memory ...
%m1, %p = "test.op"() : () -> (!mem.M<1>, !mem.ptr<!mem.array<4 x f32>, 1>)
// expected-error @below {{'mem.print_memref' prints host memory (address space 0)}}
%a = mem.print_memref %m1, %p : !mem.ptr<!mem.array<4 x f32>, 1>


// -----

// ... of the element types mlir-runner's printMemref functions print.
%m0, %p = "test.op"() : () -> (!mem.M<0>, !mem.ptr<!mem.array<4 x i8>, 0>)
// expected-error @below {{'mem.print_memref' prints elements of type i32, i64, f32 or f64, found i8}}
%a = mem.print_memref %m0, %p : !mem.ptr<!mem.array<4 x i8>, 0>
