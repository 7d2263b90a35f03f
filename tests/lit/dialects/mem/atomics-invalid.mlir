// RUN: gpu-opt %s --verify-diagnostics --split-input-file

// One case per verifier rule of mem.atomic_rmw and mem.cmpxchg.

// A kind the operation does not have.
%m1, %p, %v = "test.op"() : () -> (!mem.M<1>, !mem.ptr<i32, 1>, i32)
// expected-error @below {{'mem.atomic_rmw' on i32 expects kind to be one of add, sub, max, min, umax, umin, and, or, xor, xchg, found "nand"}}
%a, %o = mem.atomic_rmw "nand" %m1, %p, %v : !mem.ptr<i32, 1>


// -----

// Floats have add, max, min and xchg only.
%m1, %p, %v = "test.op"() : () -> (!mem.M<1>, !mem.ptr<f32, 1>, f32)
// expected-error @below {{'mem.atomic_rmw' on f32 expects kind to be one of add, max, min, xchg, found "umax"}}
%a, %o = mem.atomic_rmw "umax" %m1, %p, %v : !mem.ptr<f32, 1>


// -----

// Integers of 32 or 64 bits only.
%m1, %p, %v = "test.op"() : () -> (!mem.M<1>, !mem.ptr<i8, 1>, i8)
// expected-error @below {{'mem.atomic_rmw' expects a pointer to a 32- or 64-bit integer, index, f32 or f64, found i8}}
%a, %o = mem.atomic_rmw "add" %m1, %p, %v : !mem.ptr<i8, 1>


// -----

// Not in local memory (nor const memory).
%m5, %p, %v = "test.op"() : () -> (!mem.M<5>, !mem.ptr<i32, 5>, i32)
// expected-error @below {{'mem.atomic_rmw' cannot be used in address space 5: atomics work on host (0), global (1) and shared (3) memory}}
%a, %o = mem.atomic_rmw "add" %m5, %p, %v : !mem.ptr<i32, 5>


// -----

// The value is the pointee's type (generic form: the custom one derives it).
%m1, %p, %v = "test.op"() : () -> (!mem.M<1>, !mem.ptr<i32, 1>, i64)
// expected-error @below {{'mem.atomic_rmw' expects its value to be i32, found i64}}
%a, %o = "mem.atomic_rmw"(%m1, %p, %v) <{kind = "add"}> : (!mem.M<1>, !mem.ptr<i32, 1>, i64) -> (!mem.M<1>, i32)


// -----

// So is the old value.
%m1, %p, %v = "test.op"() : () -> (!mem.M<1>, !mem.ptr<i32, 1>, i32)
// expected-error @below {{'mem.atomic_rmw' expects its result to be i32, found i64}}
%a, %o = "mem.atomic_rmw"(%m1, %p, %v) <{kind = "add"}> : (!mem.M<1>, !mem.ptr<i32, 1>, i32) -> (!mem.M<1>, i64)


// -----

// The token is the pointer's space's.
%m3, %p, %v = "test.op"() : () -> (!mem.M<3>, !mem.ptr<i32, 1>, i32)
// expected-error @below {{'mem.atomic_rmw'}}
%a, %o = "mem.atomic_rmw"(%m3, %p, %v) <{kind = "add"}> : (!mem.M<3>, !mem.ptr<i32, 1>, i32) -> (!mem.M<3>, i32)


// -----

// Compare-and-swap takes the atomics' types: 32- or 64-bit integers and floats.
%m1, %p, %v = "test.op"() : () -> (!mem.M<1>, !mem.ptr<f16, 1>, f16)
// expected-error @below {{'mem.cmpxchg' expects a pointer to a 32- or 64-bit integer, index, f32 or f64, found f16}}
%a, %o, %ok = mem.cmpxchg %m1, %p, %v, %v : !mem.ptr<f16, 1>


// -----

%m1, %p, %v, %w = "test.op"() : () -> (!mem.M<1>, !mem.ptr<i32, 1>, i32, i64)
// expected-error @below {{'mem.cmpxchg' expects its desired value to be i32, found i64}}
%a, %o, %ok = "mem.cmpxchg"(%m1, %p, %v, %w) : (!mem.M<1>, !mem.ptr<i32, 1>, i32, i64) -> (!mem.M<1>, i32, i1)


// -----

%m5, %p, %v = "test.op"() : () -> (!mem.M<5>, !mem.ptr<i32, 5>, i32)
// expected-error @below {{'mem.cmpxchg' cannot be used in address space 5: atomics work on host (0), global (1) and shared (3) memory}}
%a, %o, %ok = mem.cmpxchg %m5, %p, %v, %v : !mem.ptr<i32, 5>


// -----

%m1, %p, %v = "test.op"() : () -> (!mem.M<1>, !mem.ptr<i32, 1>, i32)
// expected-error @below {{'mem.cmpxchg' expects its success flag to be i1}}
%a, %o, %ok = "mem.cmpxchg"(%m1, %p, %v, %v) : (!mem.M<1>, !mem.ptr<i32, 1>, i32, i32) -> (!mem.M<1>, i32, i32)
