// RUN: gpu-opt %s --verify-diagnostics --split-input-file

// One case per verifier rule of the matrix ops and !gpu.fragment.

// expected-error @below {{!gpu.fragment of kind "a" and f16 is 16x16, found 8x32}}
"test.op"() : () -> !gpu.fragment<8x32xf16, "a">

// -----

// expected-error @below {{!gpu.fragment's kind is one of "a", "b", "c", found "d"}}
"test.op"() : () -> !gpu.fragment<16x16xf16, "d">

// -----

// expected-error @below {{!gpu.fragment of kind "a" holds f16 or f64, found f32}}
"test.op"() : () -> !gpu.fragment<16x16xf32, "a">

// -----

// expected-error @below {{!gpu.fragment of kind "c" holds f16, f32 or f64, found bf16}}
"test.op"() : () -> !gpu.fragment<16x16xbf16, "c">

// -----

// expected-error @below {{!gpu.fragment of kind "c" and f64 is 8x8, found 16x16}}
"test.op"() : () -> !gpu.fragment<16x16xf64, "c">

// -----

// expected-error @below {{!gpu.fragment of kind "b" and f64 is 4x8, found 8x4}}
"test.op"() : () -> !gpu.fragment<8x4xf64, "b">

// -----

%m1, %m3, %p, %q, %i, %x, %a, %b, %c, %c16 = "test.op"() : () -> (!mem.M<1>, !mem.M<3>, !mem.ptr<!mem.array<? x f16>, 1>, !mem.ptr<!mem.array<? x f32>, 5>, index, f32, !gpu.fragment<16x16xf16, "a">, !gpu.fragment<16x16xf16, "b">, !gpu.fragment<16x16xf32, "c">, !gpu.fragment<16x16xf16, "c">)
// expected-error @below {{'gpu.mma_load' loads from global or shared memory (address space 1 or 3), found address space 5}}
%a1, %a3, %f = gpu.mma_load %m1, %m3, %q[%i] {lead = 16} : !mem.ptr<!mem.array<? x f32>, 5> -> !gpu.fragment<16x16xf32, "c">

// -----

%m1, %m3, %p, %q, %i, %x, %a, %b, %c, %c16 = "test.op"() : () -> (!mem.M<1>, !mem.M<3>, !mem.ptr<!mem.array<? x f16>, 1>, !mem.ptr<!mem.array<? x f32>, 5>, index, f32, !gpu.fragment<16x16xf16, "a">, !gpu.fragment<16x16xf16, "b">, !gpu.fragment<16x16xf32, "c">, !gpu.fragment<16x16xf16, "c">)
// expected-error @below {{'gpu.mma_load' expects a pointer to f32 elements, found !mem.ptr<!mem.array<? x f16>, 1>}}
%a1, %a3, %f = gpu.mma_load %m1, %m3, %p[%i] {lead = 16} : !mem.ptr<!mem.array<? x f16>, 1> -> !gpu.fragment<16x16xf32, "c">

// -----

%m1, %m3, %p, %q, %i, %x, %a, %b, %c, %c16 = "test.op"() : () -> (!mem.M<1>, !mem.M<3>, !mem.ptr<!mem.array<? x f16>, 1>, !mem.ptr<!mem.array<? x f32>, 5>, index, f32, !gpu.fragment<16x16xf16, "a">, !gpu.fragment<16x16xf16, "b">, !gpu.fragment<16x16xf32, "c">, !gpu.fragment<16x16xf16, "c">)
// expected-error @below {{'gpu.mma_load' expects a lead of at least 16 elements, found 8}}
%a1, %a3, %f = gpu.mma_load %m1, %m3, %p[%i] {lead = 8} : !mem.ptr<!mem.array<? x f16>, 1> -> !gpu.fragment<16x16xf16, "a">

// -----

%m1, %m3, %p, %q, %i, %x, %a, %b, %c, %c16 = "test.op"() : () -> (!mem.M<1>, !mem.M<3>, !mem.ptr<!mem.array<? x f16>, 1>, !mem.ptr<!mem.array<? x f32>, 5>, index, f32, !gpu.fragment<16x16xf16, "a">, !gpu.fragment<16x16xf16, "b">, !gpu.fragment<16x16xf32, "c">, !gpu.fragment<16x16xf16, "c">)
// expected-error @below {{'gpu.mma_store' expects its value to be a !gpu.fragment of kind "c", found !gpu.fragment<16x16xf16, "a">}}
%a1, %a3 = gpu.mma_store %m1, %m3, %a, %p[%i] {lead = 16} : !gpu.fragment<16x16xf16, "a">, !mem.ptr<!mem.array<? x f16>, 1>

// -----

%m1, %m3, %p, %q, %i, %x, %a, %b, %c, %c16 = "test.op"() : () -> (!mem.M<1>, !mem.M<3>, !mem.ptr<!mem.array<? x f16>, 1>, !mem.ptr<!mem.array<? x f32>, 5>, index, f32, !gpu.fragment<16x16xf16, "a">, !gpu.fragment<16x16xf16, "b">, !gpu.fragment<16x16xf32, "c">, !gpu.fragment<16x16xf16, "c">)
// expected-error @below {{'gpu.mma_store' stores to global or shared memory (address space 1 or 3), found address space 5}}
%a1, %a3 = gpu.mma_store %m1, %m3, %c, %q[%i] {lead = 16} : !gpu.fragment<16x16xf32, "c">, !mem.ptr<!mem.array<? x f32>, 5>

// -----

%m1, %m3, %p, %q, %i, %x, %a, %b, %c, %c16 = "test.op"() : () -> (!mem.M<1>, !mem.M<3>, !mem.ptr<!mem.array<? x f16>, 1>, !mem.ptr<!mem.array<? x f32>, 5>, index, f32, !gpu.fragment<16x16xf16, "a">, !gpu.fragment<16x16xf16, "b">, !gpu.fragment<16x16xf32, "c">, !gpu.fragment<16x16xf16, "c">)
// expected-error @below {{'gpu.mma_compute' expects its left operand to be a !gpu.fragment of kind "a", found !gpu.fragment<16x16xf16, "b">}}
%a1, %a3, %d = gpu.mma_compute %m1, %m3, %b, %b, %c : !gpu.fragment<16x16xf16, "b">, !gpu.fragment<16x16xf16, "b">, !gpu.fragment<16x16xf32, "c"> -> !gpu.fragment<16x16xf32, "c">

// -----

%m1, %m3, %p, %q, %i, %x, %a, %b, %c, %c16 = "test.op"() : () -> (!mem.M<1>, !mem.M<3>, !mem.ptr<!mem.array<? x f16>, 1>, !mem.ptr<!mem.array<? x f32>, 5>, index, f32, !gpu.fragment<16x16xf16, "a">, !gpu.fragment<16x16xf16, "b">, !gpu.fragment<16x16xf32, "c">, !gpu.fragment<16x16xf16, "c">)
// expected-error @below {{'gpu.mma_compute' expects its right operand to be a !gpu.fragment of kind "b", found !gpu.fragment<16x16xf16, "a">}}
%a1, %a3, %d = gpu.mma_compute %m1, %m3, %a, %a, %c : !gpu.fragment<16x16xf16, "a">, !gpu.fragment<16x16xf16, "a">, !gpu.fragment<16x16xf32, "c"> -> !gpu.fragment<16x16xf32, "c">

// -----

%m1, %m3, %p, %q, %i, %x, %a, %b, %c, %c16 = "test.op"() : () -> (!mem.M<1>, !mem.M<3>, !mem.ptr<!mem.array<? x f16>, 1>, !mem.ptr<!mem.array<? x f32>, 5>, index, f32, !gpu.fragment<16x16xf16, "a">, !gpu.fragment<16x16xf16, "b">, !gpu.fragment<16x16xf32, "c">, !gpu.fragment<16x16xf16, "c">)
// expected-error @below {{'gpu.mma_compute' expects its accumulator to be a !gpu.fragment of kind "c", found !gpu.fragment<16x16xf16, "b">}}
%a1, %a3, %d = gpu.mma_compute %m1, %m3, %a, %b, %b : !gpu.fragment<16x16xf16, "a">, !gpu.fragment<16x16xf16, "b">, !gpu.fragment<16x16xf16, "b"> -> !gpu.fragment<16x16xf16, "b">

// -----

%m1, %m3, %p, %q, %i, %x, %a, %b, %c, %c16 = "test.op"() : () -> (!mem.M<1>, !mem.M<3>, !mem.ptr<!mem.array<? x f16>, 1>, !mem.ptr<!mem.array<? x f32>, 5>, index, f32, !gpu.fragment<16x16xf16, "a">, !gpu.fragment<16x16xf16, "b">, !gpu.fragment<16x16xf32, "c">, !gpu.fragment<16x16xf16, "c">)
// expected-error @below {{'gpu.mma_compute' expects its result to be !gpu.fragment<16x16xf32, "c">, found !gpu.fragment<16x16xf16, "c">}}
%a1, %a3, %d = gpu.mma_compute %m1, %m3, %a, %b, %c : !gpu.fragment<16x16xf16, "a">, !gpu.fragment<16x16xf16, "b">, !gpu.fragment<16x16xf32, "c"> -> !gpu.fragment<16x16xf16, "c">

// -----

%m1, %m3, %p, %q, %i, %x, %a, %b, %c, %c16 = "test.op"() : () -> (!mem.M<1>, !mem.M<3>, !mem.ptr<!mem.array<? x f16>, 1>, !mem.ptr<!mem.array<? x f32>, 5>, index, f32, !gpu.fragment<16x16xf16, "a">, !gpu.fragment<16x16xf16, "b">, !gpu.fragment<16x16xf32, "c">, !gpu.fragment<16x16xf16, "c">)
// expected-error @below {{'gpu.mma_constant' expects its value to be f16, found f32}}
%a1, %a3, %f = gpu.mma_constant %m1, %m3, %x : f32 -> !gpu.fragment<16x16xf16, "c">

// -----

%m1, %m3, %p, %q, %i, %x, %a, %b, %c, %c16 = "test.op"() : () -> (!mem.M<1>, !mem.M<3>, !mem.ptr<!mem.array<? x f16>, 1>, !mem.ptr<!mem.array<? x f32>, 5>, index, f32, !gpu.fragment<16x16xf16, "a">, !gpu.fragment<16x16xf16, "b">, !gpu.fragment<16x16xf32, "c">, !gpu.fragment<16x16xf16, "c">)
// expected-error @below {{'gpu.mma_elementwise' expects kind to be one of addf, subf, mulf, divf, maxf, minf, negatef, found "powf"}}
%a1, %a3, %f = gpu.mma_elementwise "powf" %m1, %m3, %c, %c : !gpu.fragment<16x16xf32, "c">, !gpu.fragment<16x16xf32, "c"> -> !gpu.fragment<16x16xf32, "c">

// -----

%m1, %m3, %p, %q, %i, %x, %a, %b, %c, %c16 = "test.op"() : () -> (!mem.M<1>, !mem.M<3>, !mem.ptr<!mem.array<? x f16>, 1>, !mem.ptr<!mem.array<? x f32>, 5>, index, f32, !gpu.fragment<16x16xf16, "a">, !gpu.fragment<16x16xf16, "b">, !gpu.fragment<16x16xf32, "c">, !gpu.fragment<16x16xf16, "c">)
// expected-error @below {{'gpu.mma_elementwise' "negatef" takes 1 fragment(s), found 2}}
%a1, %a3, %f = gpu.mma_elementwise "negatef" %m1, %m3, %c, %c : !gpu.fragment<16x16xf32, "c">, !gpu.fragment<16x16xf32, "c"> -> !gpu.fragment<16x16xf32, "c">

// -----

%m1, %m3, %p, %q, %i, %x, %a, %b, %c, %c16 = "test.op"() : () -> (!mem.M<1>, !mem.M<3>, !mem.ptr<!mem.array<? x f16>, 1>, !mem.ptr<!mem.array<? x f32>, 5>, index, f32, !gpu.fragment<16x16xf16, "a">, !gpu.fragment<16x16xf16, "b">, !gpu.fragment<16x16xf32, "c">, !gpu.fragment<16x16xf16, "c">)
// expected-error @below {{'gpu.mma_elementwise' expects its operands to be !gpu.fragment<16x16xf32, "c">, found !gpu.fragment<16x16xf16, "c">}}
%a1, %a3, %f = gpu.mma_elementwise "addf" %m1, %m3, %c16, %c16 : !gpu.fragment<16x16xf16, "c">, !gpu.fragment<16x16xf16, "c"> -> !gpu.fragment<16x16xf32, "c">

// -----

// The f64 tiles (m8n8k4): a lead of at least the tile's columns (rows when transposed), and
// no product that mixes them with the 16x16 ones.

%m1, %m3, %p, %i, %a, %b, %c, %a16, %b16, %c32 = "test.op"() : () -> (!mem.M<1>, !mem.M<3>, !mem.ptr<!mem.array<? x f64>, 1>, index, !gpu.fragment<8x4xf64, "a">, !gpu.fragment<4x8xf64, "b">, !gpu.fragment<8x8xf64, "c">, !gpu.fragment<16x16xf16, "a">, !gpu.fragment<16x16xf16, "b">, !gpu.fragment<16x16xf32, "c">)
// expected-error @below {{'gpu.mma_load' expects a lead of at least 4 elements, found 2}}
%a1, %a3, %f = gpu.mma_load %m1, %m3, %p[%i] {lead = 2} : !mem.ptr<!mem.array<? x f64>, 1> -> !gpu.fragment<8x4xf64, "a">

// -----

%m1, %m3, %p, %i, %a, %b, %c, %a16, %b16, %c32 = "test.op"() : () -> (!mem.M<1>, !mem.M<3>, !mem.ptr<!mem.array<? x f64>, 1>, index, !gpu.fragment<8x4xf64, "a">, !gpu.fragment<4x8xf64, "b">, !gpu.fragment<8x8xf64, "c">, !gpu.fragment<16x16xf16, "a">, !gpu.fragment<16x16xf16, "b">, !gpu.fragment<16x16xf32, "c">)
// expected-error @below {{'gpu.mma_load' expects a lead of at least 4 elements, found 3}}
%a1, %a3, %f = gpu.mma_load %m1, %m3, %p[%i] {lead = 3, transpose} : !mem.ptr<!mem.array<? x f64>, 1> -> !gpu.fragment<4x8xf64, "b">

// -----

%m1, %m3, %p, %i, %a, %b, %c, %a16, %b16, %c32 = "test.op"() : () -> (!mem.M<1>, !mem.M<3>, !mem.ptr<!mem.array<? x f64>, 1>, index, !gpu.fragment<8x4xf64, "a">, !gpu.fragment<4x8xf64, "b">, !gpu.fragment<8x8xf64, "c">, !gpu.fragment<16x16xf16, "a">, !gpu.fragment<16x16xf16, "b">, !gpu.fragment<16x16xf32, "c">)
// expected-error @below {{'gpu.mma_store' expects a lead of at least 8 elements, found 4}}
%a1, %a3 = gpu.mma_store %m1, %m3, %c, %p[%i] {lead = 4} : !gpu.fragment<8x8xf64, "c">, !mem.ptr<!mem.array<? x f64>, 1>

// -----

%m1, %m3, %p, %i, %a, %b, %c, %a16, %b16, %c32 = "test.op"() : () -> (!mem.M<1>, !mem.M<3>, !mem.ptr<!mem.array<? x f64>, 1>, index, !gpu.fragment<8x4xf64, "a">, !gpu.fragment<4x8xf64, "b">, !gpu.fragment<8x8xf64, "c">, !gpu.fragment<16x16xf16, "a">, !gpu.fragment<16x16xf16, "b">, !gpu.fragment<16x16xf32, "c">)
// expected-error @below {{'gpu.mma_compute' expects its operands of one element type, found f64 and f16}}
%a1, %a3, %d = gpu.mma_compute %m1, %m3, %a, %b16, %c : !gpu.fragment<8x4xf64, "a">, !gpu.fragment<16x16xf16, "b">, !gpu.fragment<8x8xf64, "c"> -> !gpu.fragment<8x8xf64, "c">

// -----

%m1, %m3, %p, %i, %a, %b, %c, %a16, %b16, %c32 = "test.op"() : () -> (!mem.M<1>, !mem.M<3>, !mem.ptr<!mem.array<? x f64>, 1>, index, !gpu.fragment<8x4xf64, "a">, !gpu.fragment<4x8xf64, "b">, !gpu.fragment<8x8xf64, "c">, !gpu.fragment<16x16xf16, "a">, !gpu.fragment<16x16xf16, "b">, !gpu.fragment<16x16xf32, "c">)
// expected-error @below {{'gpu.mma_compute' expects an accumulator of f64 for operands of f64, found f32}}
%a1, %a3, %d = gpu.mma_compute %m1, %m3, %a, %b, %c32 : !gpu.fragment<8x4xf64, "a">, !gpu.fragment<4x8xf64, "b">, !gpu.fragment<16x16xf32, "c"> -> !gpu.fragment<16x16xf32, "c">

// -----

%m1, %m3, %p, %i, %a, %b, %c, %a16, %b16, %c32 = "test.op"() : () -> (!mem.M<1>, !mem.M<3>, !mem.ptr<!mem.array<? x f64>, 1>, index, !gpu.fragment<8x4xf64, "a">, !gpu.fragment<4x8xf64, "b">, !gpu.fragment<8x8xf64, "c">, !gpu.fragment<16x16xf16, "a">, !gpu.fragment<16x16xf16, "b">, !gpu.fragment<16x16xf32, "c">)
// expected-error @below {{'gpu.mma_compute' expects an accumulator of f16 or f32 for operands of f16, found f64}}
%a1, %a3, %d = gpu.mma_compute %m1, %m3, %a16, %b16, %c : !gpu.fragment<16x16xf16, "a">, !gpu.fragment<16x16xf16, "b">, !gpu.fragment<8x8xf64, "c"> -> !gpu.fragment<8x8xf64, "c">
