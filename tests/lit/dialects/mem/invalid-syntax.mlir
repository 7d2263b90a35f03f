// RUN: gpu-opt %s --parsing-diagnostics --split-input-file | filecheck %s

// Errors in the custom syntax of mem types and ops.

// Address spaces are 0, 1, 3, 4 and 5, in tokens ...
%m = "test.op"() : () -> !mem.M<2>

// CHECK: address space 2 is not one of 0 (host), 1 (global), 3 (shared), 4 (const), 5 (local)

// -----

// ... and in pointers.
%p = "test.op"() : () -> !mem.ptr<i32, 6>

// CHECK: address space 6 is not one of 0 (host), 1 (global), 3 (shared), 4 (const), 5 (local)

// -----

// Only the outermost extent of nested arrays may be dynamic.
%p = "test.op"() : () -> !mem.ptr<!mem.array<4 x !mem.array<? x i32>>, 0>

// CHECK: only the outermost extent of a !mem.array may be '?', found inner !mem.array<? x i32>

// -----

// An extent is a number or '?'.
%p = "test.op"() : () -> !mem.ptr<!mem.array<-1 x i32>, 0>

// CHECK: Expected either integer literal or '?' in shape dimension, got MINUS!

// -----

// Each op takes its number of operands.
%m, %n = "test.op"() : () -> (!mem.M<0>, index)
%a, %p = mem.alloc %m, %n, %n : !mem.ptr<!mem.array<? x i32>, 0>

// CHECK: 'mem.alloc' expects 1 or 2 operands, found 3

// -----

%m = "test.op"() : () -> !mem.M<0>
%a, %p = mem.malloc %m : !mem.ptr<i8, 0>

// CHECK: 'mem.malloc' expects 2 operands, found 1

// -----

%m, %p, %v = "test.op"() : () -> (!mem.M<0>, !mem.ptr<i32, 0>, i32)
%s = mem.store %m, %p : !mem.ptr<i32, 0>

// CHECK: 'mem.store' expects 3 operands, found 2

// -----

// The type after the colon is the pointer ...
%m, %p = "test.op"() : () -> (!mem.M<0>, !mem.ptr<i32, 0>)
%a, %v = mem.load %m, %p : i32

// CHECK: expected a !mem.ptr type, found i32

// -----

// ... whose address space fixes the token's.
%m, %p = "test.op"() : () -> (!mem.M<1>, !mem.ptr<i32, 0>)
%a, %v = mem.load %m, %p : !mem.ptr<i32, 0>

// CHECK: operand is used with type !mem.M<0>, but has been previously used or defined with type !mem.M<1>

// -----

// mem.remem names the token type.
%m = "test.op"() : () -> !mem.M<0>
%r = mem.remem %m : i32

// CHECK: expected a !mem.M type, found i32

// -----

// An atomic's kind is a string.
%m1, %p, %v = "test.op"() : () -> (!mem.M<1>, !mem.ptr<i32, 1>, i32)
%a, %o = mem.atomic_rmw add %m1, %p, %v : !mem.ptr<i32, 1>

// CHECK: string literal expected for the atomic operation's kind
