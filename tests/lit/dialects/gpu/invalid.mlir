// RUN: gpu-opt %s --verify-diagnostics --split-input-file

// One case per verifier rule of the gpu dialect, in the custom syntax where it can express the
// error and in the generic form where it cannot.

// --- tokens and streams (IRDL constraints) ------------------------------------------------------

// gpu.init opens the device from the host token.
%m1 = "test.op"() : () -> !mem.M<1>
// expected-error @below {{operand 'mem' at position 0 does not verify:}}
%a0, %a1, %a4 = "gpu.init"(%m1) : (!mem.M<1>) -> (!mem.M<0>, !mem.M<1>, !mem.M<4>)


// -----

%m0 = "test.op"() : () -> !mem.M<0>
// expected-error @below {{result 'res_m4' at position 2 does not verify:}}
%a0, %a1, %a4 = "gpu.auto_init"(%m0) : (!mem.M<0>) -> (!mem.M<0>, !mem.M<1>, !mem.M<3>)


// -----

%m0, %m1, %m4 = "test.op"() : () -> (!mem.M<0>, !mem.M<1>, !mem.M<1>)
// expected-error @below {{operand 'm4' at position 2 does not verify:}}
%d0 = "gpu.deinit"(%m0, %m1, %m4) : (!mem.M<0>, !mem.M<1>, !mem.M<1>) -> !mem.M<0>


// -----

%m0, %m1, %m4 = "test.op"() : () -> (!mem.M<0>, !mem.M<1>, !mem.M<4>)
// expected-error @below {{result 'res_m0' at position 0 does not verify:}}
%d0 = "gpu.auto_deinit"(%m0, %m1, %m4) : (!mem.M<0>, !mem.M<1>, !mem.M<4>) -> !mem.M<1>


// -----

// expected-error @below {{result 'res' at position 0 does not verify:}}
%s = "gpu.default_stream"() : () -> i32


// -----

// The stream slot is a host pointer to a stream.
%m0, %m1, %p = "test.op"() : () -> (!mem.M<0>, !mem.M<1>, !mem.ptr<!gpu.stream, 1>)
// expected-error @below {{operand 'slot' at position 2 does not verify:}}
%a0, %a1 = "gpu.stream_init"(%m0, %m1, %p) : (!mem.M<0>, !mem.M<1>, !mem.ptr<!gpu.stream, 1>) -> (!mem.M<0>, !mem.M<1>)


// -----

%m0, %m1, %s = "test.op"() : () -> (!mem.M<0>, !mem.M<1>, i32)
// expected-error @below {{operand 'stream' at position 2 does not verify:}}
%a0, %a1 = "gpu.stream_sync"(%m0, %m1, %s) : (!mem.M<0>, !mem.M<1>, i32) -> (!mem.M<0>, !mem.M<1>)


// -----

%m0, %m1, %s = "test.op"() : () -> (!mem.M<0>, !mem.M<3>, !gpu.stream)
// expected-error @below {{operand 'm1' at position 1 does not verify:}}
%a0, %a1 = "gpu.stream_deinit"(%m0, %m1, %s) : (!mem.M<0>, !mem.M<3>, !gpu.stream) -> (!mem.M<0>, !mem.M<1>)


// -----

// The barrier takes the global and the shared token.
%m1, %m3 = "test.op"() : () -> (!mem.M<1>, !mem.M<5>)
// expected-error @below {{operand 'm3' at position 1 does not verify:}}
%a1, %a3 = "gpu.sync_work_items"(%m1, %m3) : (!mem.M<1>, !mem.M<5>) -> (!mem.M<1>, !mem.M<3>)


// -----

// --- with_streams and synced_scope ------------------------------------------------------------

%m0, %m1 = "test.op"() : () -> (!mem.M<0>, !mem.M<1>)
// expected-error @below {{'gpu.with_streams' expects a count >= 0, found -1}}
%w0, %w1 = "gpu.with_streams"(%m0, %m1) <{count = -1 : i64}> ({
^bb0(%x0: !mem.M<0>, %x1: !mem.M<1>):
  gpu.yield %x0, %x1 : !mem.M<0>, !mem.M<1>
}) : (!mem.M<0>, !mem.M<1>) -> (!mem.M<0>, !mem.M<1>)


// -----

%m0, %m1 = "test.op"() : () -> (!mem.M<0>, !mem.M<1>)
// expected-error @below {{Expected attribute i64 but got i32}}
%w0, %w1 = "gpu.with_streams"(%m0, %m1) <{count = 1 : i32}> ({
^bb0(%x0: !mem.M<0>, %x1: !mem.M<1>, %s: !gpu.stream):
  gpu.yield %x0, %x1 : !mem.M<0>, !mem.M<1>
}) : (!mem.M<0>, !mem.M<1>) -> (!mem.M<0>, !mem.M<1>)


// -----

// The region takes the two tokens and one stream per count ...
%m0, %m1 = "test.op"() : () -> (!mem.M<0>, !mem.M<1>)
// expected-error @below {{'gpu.with_streams' expects its region to take (!mem.M<0>, !mem.M<1>, !gpu.stream, !gpu.stream), found (!mem.M<0>, !mem.M<1>, !gpu.stream)}}
%w0, %w1 = gpu.with_streams %m0, %m1 count 2 {
^bb0(%x0: !mem.M<0>, %x1: !mem.M<1>, %s: !gpu.stream):
  gpu.yield %x0, %x1 : !mem.M<0>, !mem.M<1>
}


// -----

// ... and yields the two tokens.
%m0, %m1 = "test.op"() : () -> (!mem.M<0>, !mem.M<1>)
// expected-error @below {{'gpu.with_streams' expects its region to yield (!mem.M<0>, !mem.M<1>), found (!mem.M<0>)}}
%w0, %w1 = gpu.with_streams %m0, %m1 count 0 {
^bb0(%x0: !mem.M<0>, %x1: !mem.M<1>):
  gpu.yield %x0 : !mem.M<0>
}


// -----

%m1, %m3 = "test.op"() : () -> (!mem.M<1>, !mem.M<3>)
// expected-error @below {{'gpu.synced_scope' expects its region to take (!mem.M<1>, !mem.M<3>), found (!mem.M<1>)}}
%a1, %a3 = gpu.synced_scope %m1, %m3 {
^bb0(%x1: !mem.M<1>):
  gpu.yield %x1, %m3 : !mem.M<1>, !mem.M<3>
}


// -----

%m1, %m3 = "test.op"() : () -> (!mem.M<1>, !mem.M<3>)
// expected-error @below {{'gpu.synced_scope' expects its region to yield (!mem.M<1>, !mem.M<3>), found (!mem.M<3>, !mem.M<1>)}}
%a1, %a3 = gpu.synced_scope %m1, %m3 {
^bb0(%x1: !mem.M<1>, %x3: !mem.M<3>):
  gpu.yield %x3, %x1 : !mem.M<3>, !mem.M<1>
}


// -----

// The region ends in gpu.yield, not in another terminator ...
%m1, %m3 = "test.op"() : () -> (!mem.M<1>, !mem.M<3>)
// expected-error @below {{'gpu.synced_scope' expects its region to end in gpu.yield}}
%a1, %a3 = "gpu.synced_scope"(%m1, %m3) ({
^bb0(%x1: !mem.M<1>, %x3: !mem.M<3>):
  "test.termop"() : () -> ()
}) : (!mem.M<1>, !mem.M<3>) -> (!mem.M<1>, !mem.M<3>)


// -----

// ... and is one block.
%m0, %m1 = "test.op"() : () -> (!mem.M<0>, !mem.M<1>)
// expected-error @below {{Region 'body' at position 0 expected a single block, but got 0 blocks}}
%w0, %w1 = "gpu.with_streams"(%m0, %m1) <{count = 0 : i64}> ({
}) : (!mem.M<0>, !mem.M<1>) -> (!mem.M<0>, !mem.M<1>)


// -----

// gpu.yield ends only the regions of gpu.with_streams and gpu.synced_scope.
%m1 = "test.op"() : () -> !mem.M<1>
// expected-error @below {{'gpu.yield' expects parent op to be one of 'gpu.with_streams', 'gpu.synced_scope'}}
gpu.yield %m1 : !mem.M<1>


// -----

// --- device memory ------------------------------------------------------------------------------

// Device allocations are global ...
%m1 = "test.op"() : () -> !mem.M<1>
// expected-error @below {{'gpu.alloc.block' expects the result to be a !mem.ptr in address space 1, found !mem.ptr<f32, 0>}}
%a1, %p = gpu.alloc.block %m1 : !mem.ptr<f32, 0>


// -----

// ... take an extent iff they allocate a dynamic array ...
%m1, %n = "test.op"() : () -> (!mem.M<1>, index)
// expected-error @below {{'gpu.alloc.block' allocates !mem.array<4 x f32>, whose size is static, so it expects no extent operand, found one}}
%a1, %p = gpu.alloc.block %m1, %n : !mem.ptr<!mem.array<4 x f32>, 1>


// -----

%m1, %s = "test.op"() : () -> (!mem.M<1>, !gpu.stream)
// expected-error @below {{'gpu.alloc.asyn' allocates !mem.array<? x f32>, so it expects an extent operand, found none}}
%a1, %p = gpu.alloc.asyn %m1 on %s : !mem.ptr<!mem.array<? x f32>, 1>


// -----

// ... of type index.
%m1, %s, %n = "test.op"() : () -> (!mem.M<1>, !gpu.stream, i64)
// expected-error @below {{operand 'extent' at position 2 does not verify:}}
%a1, %p = "gpu.alloc.asyn"(%m1, %s, %n) : (!mem.M<1>, !gpu.stream, i64) -> (!mem.M<1>, !mem.ptr<!mem.array<? x f32>, 1>)


// -----

// Device frees take global pointers.
%m1, %p = "test.op"() : () -> (!mem.M<1>, !mem.ptr<f32, 0>)
// expected-error @below {{'gpu.free.block' expects the freed pointer to be a !mem.ptr in address space 1, found !mem.ptr<f32, 0>}}
%a1 = gpu.free.block %m1, %p : !mem.ptr<f32, 0>


// -----

%m1, %p, %s = "test.op"() : () -> (!mem.M<1>, !mem.ptr<f32, 5>, !gpu.stream)
// expected-error @below {{'gpu.free.asyn' expects the freed pointer to be a !mem.ptr in address space 1, found !mem.ptr<f32, 5>}}
%a1 = gpu.free.asyn %m1, %p on %s : !mem.ptr<f32, 5>


// -----

// A copy to the device goes from a host pointer ...
%m0, %m1, %h, %d = "test.op"() : () -> (!mem.M<0>, !mem.M<1>, !mem.ptr<f32, 1>, !mem.ptr<f32, 1>)
// expected-error @below {{'gpu.copy_to_device.block' expects the source to be a !mem.ptr in address space 0, found !mem.ptr<f32, 1>}}
%a0, %a1 = gpu.copy_to_device.block %m0, %m1, %h -> %d : !mem.ptr<f32, 1> -> !mem.ptr<f32, 1>


// -----

// ... to a global one ...
%m0, %m1, %h, %d, %s = "test.op"() : () -> (!mem.M<0>, !mem.M<1>, !mem.ptr<f32, 0>, !mem.ptr<f32, 0>, !gpu.stream)
// expected-error @below {{'gpu.copy_to_device.asyn' expects the destination to be a !mem.ptr in address space 1, found !mem.ptr<f32, 0>}}
%a0, %a1 = gpu.copy_to_device.asyn %m0, %m1, %h -> %d on %s : !mem.ptr<f32, 0> -> !mem.ptr<f32, 0>


// -----

// ... of the same pointee.
%m0, %m1, %h, %d = "test.op"() : () -> (!mem.M<0>, !mem.M<1>, !mem.ptr<f32, 0>, !mem.ptr<i32, 1>)
// expected-error @below {{'gpu.copy_to_device.block' expects source and destination of the same pointee type, found f32 and i32}}
%a0, %a1 = gpu.copy_to_device.block %m0, %m1, %h -> %d : !mem.ptr<f32, 0> -> !mem.ptr<i32, 1>


// -----

// A copy to the host goes the other way.
%m0, %m1, %d, %h = "test.op"() : () -> (!mem.M<0>, !mem.M<1>, !mem.ptr<f32, 0>, !mem.ptr<f32, 0>)
// expected-error @below {{'gpu.copy_to_host.block' expects the source to be a !mem.ptr in address space 1, found !mem.ptr<f32, 0>}}
%a0, %a1 = gpu.copy_to_host.block %m0, %m1, %d -> %h : !mem.ptr<f32, 0> -> !mem.ptr<f32, 0>


// -----

%m0, %m1, %d, %h, %s = "test.op"() : () -> (!mem.M<0>, !mem.M<1>, !mem.ptr<f32, 1>, !mem.ptr<f32, 3>, !gpu.stream)
// expected-error @below {{'gpu.copy_to_host.asyn' expects the destination to be a !mem.ptr in address space 0, found !mem.ptr<f32, 3>}}
%a0, %a1 = gpu.copy_to_host.asyn %m0, %m1, %d -> %h on %s : !mem.ptr<f32, 1> -> !mem.ptr<f32, 3>


// -----

%m0, %m1, %d, %h = "test.op"() : () -> (!mem.M<0>, !mem.M<1>, !mem.ptr<!mem.array<4 x f32>, 1>, !mem.ptr<!mem.array<8 x f32>, 0>)
// expected-error @below {{'gpu.copy_to_host.block' expects source and destination of the same pointee type, found !mem.array<4 x f32> and !mem.array<8 x f32>}}
%a0, %a1 = gpu.copy_to_host.block %m0, %m1, %d -> %h : !mem.ptr<!mem.array<4 x f32>, 1> -> !mem.ptr<!mem.array<8 x f32>, 0>


// -----

// alloc_copy copies a host pointee ...
%m0, %m1, %h = "test.op"() : () -> (!mem.M<0>, !mem.M<1>, !mem.ptr<f32, 1>)
// expected-error @below {{'gpu.alloc_copy.block' expects the source to be a !mem.ptr in address space 0, found !mem.ptr<f32, 1>}}
%a0, %a1, %p = gpu.alloc_copy.block %m0, %m1, %h : !mem.ptr<f32, 1> -> !mem.ptr<f32, 1>


// -----

// ... into a new global one ...
%m0, %m1, %h, %s = "test.op"() : () -> (!mem.M<0>, !mem.M<1>, !mem.ptr<f32, 0>, !gpu.stream)
// expected-error @below {{'gpu.alloc_copy.asyn' expects the result to be a !mem.ptr in address space 1, found !mem.ptr<f32, 0>}}
%a0, %a1, %p = gpu.alloc_copy.asyn %m0, %m1, %h on %s : !mem.ptr<f32, 0> -> !mem.ptr<f32, 0>


// -----

// ... of the same type ...
%m0, %m1, %h = "test.op"() : () -> (!mem.M<0>, !mem.M<1>, !mem.ptr<f32, 0>)
// expected-error @below {{'gpu.alloc_copy.block' expects source and result of the same pointee type, found f32 and i32}}
%a0, %a1, %p = gpu.alloc_copy.block %m0, %m1, %h : !mem.ptr<f32, 0> -> !mem.ptr<i32, 1>


// -----

// ... and of static size (it takes no extent).
%m0, %m1, %h, %s = "test.op"() : () -> (!mem.M<0>, !mem.M<1>, !mem.ptr<!mem.array<? x f32>, 0>, !gpu.stream)
// expected-error @below {{'gpu.alloc_copy.asyn' expects a pointee of static size (it takes no extent operand), found !mem.array<? x f32>}}
%a0, %a1, %p = gpu.alloc_copy.asyn %m0, %m1, %h on %s : !mem.ptr<!mem.array<? x f32>, 0> -> !mem.ptr<!mem.array<? x f32>, 1>


// -----

// A buffer's device copy is global ...
%m0, %m1, %b = "test.op"() : () -> (!mem.M<0>, !mem.M<1>, !buffer.buf<4x2xf32>)
// expected-error @below {{'gpu.buf_alloc_copy' expects the result to be a !mem.ptr in address space 1, found !mem.ptr<!mem.array<4 x !mem.array<2 x f32>>, 0>}}
%a0, %a1, %p = gpu.buf_alloc_copy %m0, %m1, %b : !buffer.buf<4x2xf32> -> !mem.ptr<!mem.array<4 x !mem.array<2 x f32>>, 0>


// -----

// ... of a dense buffer: transfers are dense, a view is copied into a dense buffer first ...
%m0, %m1, %b = "test.op"() : () -> (!mem.M<0>, !mem.M<1>, !buffer.buf<2x4xf32, strided<[1, 2]>>)
// expected-error @below {{'gpu.buf_alloc_copy' copies dense buffers only (transfers are dense), found the view !buffer.buf<2x4xf32, strided<[1, 2]>>: buffer.copy it into a dense buffer first}}
%a0, %a1, %p = gpu.buf_alloc_copy %m0, %m1, %b : !buffer.buf<2x4xf32, strided<[1, 2]>> -> !mem.ptr<!mem.array<2 x !mem.array<4 x f32>>, 1>


// -----

%m0, %m1, %p, %b = "test.op"() : () -> (!mem.M<0>, !mem.M<1>, !mem.ptr<!mem.array<2 x !mem.array<4 x f32>>, 1>, !buffer.buf<2x4xf32, strided<[8, 2]>>)
// expected-error @below {{'gpu.buf_copy_to_host' copies dense buffers only (transfers are dense), found the view !buffer.buf<2x4xf32, strided<[8, 2]>>: buffer.copy it into a dense buffer first}}
%a0, %a1 = gpu.buf_copy_to_host %m0, %m1, %p -> %b : !mem.ptr<!mem.array<2 x !mem.array<4 x f32>>, 1> -> !buffer.buf<2x4xf32, strided<[8, 2]>>


// -----

// ... nested arrays of the buffer's shape, outermost dimension first ...
%m0, %m1, %b = "test.op"() : () -> (!mem.M<0>, !mem.M<1>, !buffer.buf<4x2xf32>)
// expected-error @below {{'gpu.buf_alloc_copy' expects the device pointer to point to !mem.array<4 x !mem.array<2 x f32>> (the shape of !buffer.buf<4x2xf32>), found !mem.array<2 x !mem.array<4 x f32>>}}
%a0, %a1, %p = gpu.buf_alloc_copy %m0, %m1, %b : !buffer.buf<4x2xf32> -> !mem.ptr<!mem.array<2 x !mem.array<4 x f32>>, 1>


// -----

// ... (for a rank-0 buffer, its element) ...
%m0, %m1, %b = "test.op"() : () -> (!mem.M<0>, !mem.M<1>, !buffer.buf<f32>)
// expected-error @below {{'gpu.buf_alloc_copy' expects the device pointer to point to f32 (the shape of !buffer.buf<f32>), found !mem.array<1 x f32>}}
%a0, %a1, %p = gpu.buf_alloc_copy %m0, %m1, %b : !buffer.buf<f32> -> !mem.ptr<!mem.array<1 x f32>, 1>


// -----

// ... so only its outermost extent may be dynamic.
%m0, %m1, %b = "test.op"() : () -> (!mem.M<0>, !mem.M<1>, !buffer.buf<4x?xf32>)
// expected-error @below {{'gpu.buf_alloc_copy' can only copy buffers whose inner dimensions are static, found !buffer.buf<4x?xf32>}}
%a0, %a1, %p = "gpu.buf_alloc_copy"(%m0, %m1, %b) : (!mem.M<0>, !mem.M<1>, !buffer.buf<4x?xf32>) -> (!mem.M<0>, !mem.M<1>, !mem.ptr<f32, 1>)


// -----

// The same rules hold for the copy back.
%m0, %m1, %p, %b = "test.op"() : () -> (!mem.M<0>, !mem.M<1>, !mem.ptr<!mem.array<? x !mem.array<2 x f32>>, 0>, !buffer.buf<?x2xf32>)
// expected-error @below {{'gpu.buf_copy_to_host' expects the source to be a !mem.ptr in address space 1, found !mem.ptr<!mem.array<? x !mem.array<2 x f32>>, 0>}}
%a0, %a1 = gpu.buf_copy_to_host %m0, %m1, %p -> %b : !mem.ptr<!mem.array<? x !mem.array<2 x f32>>, 0> -> !buffer.buf<?x2xf32>


// -----

%m0, %m1, %p, %b = "test.op"() : () -> (!mem.M<0>, !mem.M<1>, !mem.ptr<!mem.array<? x !mem.array<2 x f64>>, 1>, !buffer.buf<?x2xf32>)
// expected-error @below {{'gpu.buf_copy_to_host' expects the device pointer to point to !mem.array<? x !mem.array<2 x f32>> (the shape of !buffer.buf<?x2xf32>), found !mem.array<? x !mem.array<2 x f64>>}}
%a0, %a1 = gpu.buf_copy_to_host %m0, %m1, %p -> %b : !mem.ptr<!mem.array<? x !mem.array<2 x f64>>, 1> -> !buffer.buf<?x2xf32>


// -----

%m0, %m1, %p, %b = "test.op"() : () -> (!mem.M<0>, !mem.M<1>, !mem.ptr<!mem.array<2 x f32>, 1>, !buffer.buf<2x?xf32>)
// expected-error @below {{'gpu.buf_copy_to_host' can only copy buffers whose inner dimensions are static, found !buffer.buf<2x?xf32>}}
%a0, %a1 = gpu.buf_copy_to_host %m0, %m1, %p -> %b : !mem.ptr<!mem.array<2 x f32>, 1> -> !buffer.buf<2x?xf32>


// -----

// --- launch -------------------------------------------------------------------------------------

func.func private @k(!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>, index, index) -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>)
%n, %s, %m0, %m1, %m4 = "test.op"() : () -> (index, !gpu.stream, !mem.M<0>, !mem.M<1>, !mem.M<4>)
// expected-error @below {{'gpu.launch' names the kernel @nope, which does not exist}}
%l0, %l1, %l4 = gpu.launch @nope grid(%n, %n) stream(%s) mems(%m0, %m1, %m4)


// -----

// A kernel in another module is named by its nested symbol.
builtin.module @device {
  func.func private @k(!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>, index, index) -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>)
}
%n, %s, %m0, %m1, %m4 = "test.op"() : () -> (index, !gpu.stream, !mem.M<0>, !mem.M<1>, !mem.M<4>)
// expected-error @below {{'gpu.launch' names the kernel @k, which does not exist}}
%l0, %l1, %l4 = gpu.launch @k grid(%n, %n) stream(%s) mems(%m0, %m1, %m4)


// -----

builtin.module @k {
}
%n, %s, %m0, %m1, %m4 = "test.op"() : () -> (index, !gpu.stream, !mem.M<0>, !mem.M<1>, !mem.M<4>)
// expected-error @below {{'gpu.launch' expects @k to be a func.func, found builtin.module}}
%l0, %l1, %l4 = gpu.launch @k grid(%n, %n) stream(%s) mems(%m0, %m1, %m4)


// -----

// A kernel returns the four device tokens ...
func.func private @k(!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>, index, index) -> (!mem.M<1>, !mem.M<3>)
%n, %s, %m0, %m1, %m4 = "test.op"() : () -> (index, !gpu.stream, !mem.M<0>, !mem.M<1>, !mem.M<4>)
// expected-error @below {{'gpu.launch' of @k: a kernel must return (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>), found (!mem.M<1>, !mem.M<3>)}}
%l0, %l1, %l4 = gpu.launch @k grid(%n, %n) stream(%s) mems(%m0, %m1, %m4)


// -----

// ... and starts with them and its group and item ids.
func.func private @k(!mem.M<1>, !mem.M<3>, !mem.M<4>, index, index) -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>)
%n, %s, %m0, %m1, %m4 = "test.op"() : () -> (index, !gpu.stream, !mem.M<0>, !mem.M<1>, !mem.M<4>)
// expected-error @below {{'gpu.launch' of @k: a kernel must start with the parameters (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>, index, index), found (!mem.M<1>, !mem.M<3>, !mem.M<4>, index, index)}}
%l0, %l1, %l4 = gpu.launch @k grid(%n, %n) stream(%s) mems(%m0, %m1, %m4)


// -----

// A kernel that takes a shared-memory pointer needs a launch with an smem type ...
func.func private @k(!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>, index, index, !mem.ptr<!mem.array<4 x f32>, 3>, i32) -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>)
%n, %s, %m0, %m1, %m4, %x = "test.op"() : () -> (index, !gpu.stream, !mem.M<0>, !mem.M<1>, !mem.M<4>, i32)
// expected-error @below {{'gpu.launch' of @k: the kernel takes the shared-memory pointer !mem.ptr<!mem.array<4 x f32>, 3>, but the launch has no smem type}}
%l0, %l1, %l4 = gpu.launch @k grid(%n, %n) stream(%s) mems(%m0, %m1, %m4) args(%x) : (i32)


// -----

// ... even when the launch passes a shared pointer of its own in its place.
func.func private @k(!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>, index, index, !mem.ptr<f32, 3>) -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>)
%n, %s, %m0, %m1, %m4, %p = "test.op"() : () -> (index, !gpu.stream, !mem.M<0>, !mem.M<1>, !mem.M<4>, !mem.ptr<f32, 3>)
// expected-error @below {{'gpu.launch' of @k: the kernel takes the shared-memory pointer !mem.ptr<f32, 3>, but the launch has no smem type}}
%l0, %l1, %l4 = gpu.launch @k grid(%n, %n) stream(%s) mems(%m0, %m1, %m4) args(%p) : (!mem.ptr<f32, 3>)


// -----

// An smem type needs a kernel that takes the pointer to it ...
func.func private @k(!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>, index, index) -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>)
%n, %s, %m0, %m1, %m4 = "test.op"() : () -> (index, !gpu.stream, !mem.M<0>, !mem.M<1>, !mem.M<4>)
// expected-error @below {{'gpu.launch' of @k: the launch's smem type expects the kernel parameter !mem.ptr<!mem.array<4 x f32>, 3>, found none}}
%l0, %l1, %l4 = gpu.launch @k grid(%n, %n) stream(%s) smem(!mem.array<4 x f32>) mems(%m0, %m1, %m4)


// -----

func.func private @k(!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>, index, index, !mem.ptr<!mem.array<4 x f32>, 3>) -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>)
%n, %s, %m0, %m1, %m4 = "test.op"() : () -> (index, !gpu.stream, !mem.M<0>, !mem.M<1>, !mem.M<4>)
// expected-error @below {{'gpu.launch' of @k: the launch's smem type expects the kernel parameter !mem.ptr<!mem.array<8 x f32>, 3>, found !mem.ptr<!mem.array<4 x f32>, 3>}}
%l0, %l1, %l4 = gpu.launch @k grid(%n, %n) stream(%s) smem(!mem.array<8 x f32>) mems(%m0, %m1, %m4)


// -----

// ... and an extent iff it is a dynamic array.
func.func private @k(!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>, index, index, !mem.ptr<!mem.array<? x f32>, 3>) -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>)
%n, %s, %m0, %m1, %m4 = "test.op"() : () -> (index, !gpu.stream, !mem.M<0>, !mem.M<1>, !mem.M<4>)
// expected-error @below {{'gpu.launch' allocates !mem.array<? x f32>, so it expects an extent operand, found none}}
%l0, %l1, %l4 = gpu.launch @k grid(%n, %n) stream(%s) smem(!mem.array<? x f32>) mems(%m0, %m1, %m4)


// -----

func.func private @k(!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>, index, index, !mem.ptr<!mem.array<4 x f32>, 3>) -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>)
%n, %s, %m0, %m1, %m4 = "test.op"() : () -> (index, !gpu.stream, !mem.M<0>, !mem.M<1>, !mem.M<4>)
// expected-error @below {{'gpu.launch' allocates !mem.array<4 x f32>, whose size is static, so it expects no extent operand, found one}}
%l0, %l1, %l4 = gpu.launch @k grid(%n, %n) stream(%s) smem(!mem.array<4 x f32>, %n) mems(%m0, %m1, %m4)


// -----

func.func private @k(!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>, index, index) -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>)
%n, %s, %m0, %m1, %m4 = "test.op"() : () -> (index, !gpu.stream, !mem.M<0>, !mem.M<1>, !mem.M<4>)
// expected-error @below {{'gpu.launch' has a smem_extent operand but no smem type}}
%l0, %l1, %l4 = "gpu.launch"(%n, %n, %s, %n, %m0, %m1, %m4) <{kernel = @k, operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1, 0>}> : (index, index, !gpu.stream, index, !mem.M<0>, !mem.M<1>, !mem.M<4>) -> (!mem.M<0>, !mem.M<1>, !mem.M<4>)


// -----

// The arguments are the kernel's remaining parameters.
func.func private @k(!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>, index, index, !mem.ptr<f32, 1>, i32) -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>)
%n, %s, %m0, %m1, %m4, %p = "test.op"() : () -> (index, !gpu.stream, !mem.M<0>, !mem.M<1>, !mem.M<4>, !mem.ptr<f32, 1>)
// expected-error @below {{'gpu.launch' of @k: the kernel takes arguments (!mem.ptr<f32, 1>, i32), the launch passes (!mem.ptr<f32, 1>, index)}}
%l0, %l1, %l4 = gpu.launch @k grid(%n, %n) stream(%s) mems(%m0, %m1, %m4) args(%p, %n) : (!mem.ptr<f32, 1>, index)


// -----

func.func private @k(!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>, index, index, !mem.ptr<!mem.array<4 x f32>, 3>, i32) -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>)
%n, %s, %m0, %m1, %m4 = "test.op"() : () -> (index, !gpu.stream, !mem.M<0>, !mem.M<1>, !mem.M<4>)
// expected-error @below {{'gpu.launch' of @k: the kernel takes arguments (i32), the launch passes ()}}
%l0, %l1, %l4 = gpu.launch @k grid(%n, %n) stream(%s) smem(!mem.array<4 x f32>) mems(%m0, %m1, %m4)


// -----

// The properties and operand groups are IR.md's.
func.func private @k(!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>, index, index) -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>)
%n, %s, %m0, %m1, %m4 = "test.op"() : () -> (index, !gpu.stream, !mem.M<0>, !mem.M<1>, !mem.M<4>)
// expected-error @below {{Expected operandSegmentSizes property in gpu.launch operation.}}
%l0, %l1, %l4 = "gpu.launch"(%n, %n, %s, %m0, %m1, %m4) <{kernel = @k}> : (index, index, !gpu.stream, !mem.M<0>, !mem.M<1>, !mem.M<4>) -> (!mem.M<0>, !mem.M<1>, !mem.M<4>)


// -----

func.func private @k(!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>, index, index) -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>)
%n, %s, %m0, %m1, %m4 = "test.op"() : () -> (index, !gpu.stream, !mem.M<0>, !mem.M<1>, !mem.M<4>)
// expected-error @below {{expected 8 values in operandSegmentSizes, but got 7}}
%l0, %l1, %l4 = "gpu.launch"(%n, %n, %s, %m0, %m1, %m4) <{kernel = @k, operandSegmentSizes = array<i32: 1, 1, 1, 0, 1, 1, 1>}> : (index, index, !gpu.stream, !mem.M<0>, !mem.M<1>, !mem.M<4>) -> (!mem.M<0>, !mem.M<1>, !mem.M<4>)


// -----

%n, %s, %m0, %m1, %m4 = "test.op"() : () -> (index, !gpu.stream, !mem.M<0>, !mem.M<1>, !mem.M<4>)
// expected-error @below {{"k" should be of base attribute symbol_ref}}
%l0, %l1, %l4 = "gpu.launch"(%n, %n, %s, %m0, %m1, %m4) <{kernel = "k", operandSegmentSizes = array<i32: 1, 1, 1, 0, 1, 1, 1, 0>}> : (index, index, !gpu.stream, !mem.M<0>, !mem.M<1>, !mem.M<4>) -> (!mem.M<0>, !mem.M<1>, !mem.M<4>)


// -----

%n, %s, %m0, %m1, %m4 = "test.op"() : () -> (index, !gpu.stream, !mem.M<0>, !mem.M<1>, !mem.M<4>)
// expected-error @below {{4 : i64 should be of attribute subclassing `TypeAttribute`}}
%l0, %l1, %l4 = "gpu.launch"(%n, %n, %s, %m0, %m1, %m4) <{kernel = @k, smem = 4 : i64, operandSegmentSizes = array<i32: 1, 1, 1, 0, 1, 1, 1, 0>}> : (index, index, !gpu.stream, !mem.M<0>, !mem.M<1>, !mem.M<4>) -> (!mem.M<0>, !mem.M<1>, !mem.M<4>)


// -----

// The launch threads the host, global and const tokens.
func.func private @k(!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>, index, index) -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>)
%n, %s, %m0, %m1, %m4 = "test.op"() : () -> (index, !gpu.stream, !mem.M<0>, !mem.M<1>, !mem.M<3>)
// expected-error @below {{operand 'm4' at position 5 does not verify:}}
%l0, %l1, %l4 = "gpu.launch"(%n, %n, %s, %m0, %m1, %m4) <{kernel = @k, operandSegmentSizes = array<i32: 1, 1, 1, 0, 1, 1, 1, 0>}> : (index, index, !gpu.stream, !mem.M<0>, !mem.M<1>, !mem.M<3>) -> (!mem.M<0>, !mem.M<1>, !mem.M<4>)


// -----

// --- collectives --------------------------------------------------------------------------------

%m1, %m3, %v = "test.op"() : () -> (!mem.M<1>, !mem.M<3>, f32)
// expected-error @below {{'gpu.workgroup_scan' expects kind to be one of add, mul, min, max, and, or, xor, found "sum"}}
%a1, %a3, %r = gpu.workgroup_scan "sum" %m1, %m3, %v : f32


// -----

%m1, %m3, %v = "test.op"() : () -> (!mem.M<1>, !mem.M<3>, f32)
// expected-error @below {{0 : i64 should be of base attribute string}}
%a1, %a3, %r = "gpu.workgroup_reduce"(%m1, %m3, %v) <{kind = 0 : i64}> : (!mem.M<1>, !mem.M<3>, f32) -> (!mem.M<1>, !mem.M<3>, f32)


// -----

%m1, %m3, %v = "test.op"() : () -> (!mem.M<1>, !mem.M<3>, !mem.ptr<f32, 1>)
// expected-error @below {{'gpu.workgroup_reduce' expects an integer, index or float value, found !mem.ptr<f32, 1>}}
%a1, %a3, %r = gpu.workgroup_reduce "add" %m1, %m3, %v : !mem.ptr<f32, 1>


// -----

%m1, %m3, %v = "test.op"() : () -> (!mem.M<1>, !mem.M<3>, f32)
// expected-error @below {{'gpu.workgroup_reduce' kind "xor" needs an integer value, found f32}}
%a1, %a3, %r = gpu.workgroup_reduce "xor" %m1, %m3, %v : f32


// -----

%m1, %m3, %v = "test.op"() : () -> (!mem.M<1>, !mem.M<3>, f32)
// expected-error @below {{'gpu.workgroup_scan' expects its result to be f32, found f64}}
%a1, %a3, %r = "gpu.workgroup_scan"(%m1, %m3, %v) <{kind = "add"}> : (!mem.M<1>, !mem.M<3>, f32) -> (!mem.M<1>, !mem.M<3>, f64)


// -----

// Collectives are work-group barriers: they take the global and the shared token.
%m1, %m3, %v = "test.op"() : () -> (!mem.M<1>, !mem.M<1>, i32)
// expected-error @below {{operand 'm3' at position 1 does not verify:}}
%a1, %a3, %r = "gpu.workgroup_scan"(%m1, %m3, %v) <{kind = "add"}> : (!mem.M<1>, !mem.M<1>, i32) -> (!mem.M<1>, !mem.M<3>, i32)


// -----

// A fence's scope is one of workgroup, device, system.
%m1, %m3 = "test.op"() : () -> (!mem.M<1>, !mem.M<3>)
// expected-error @below {{'gpu.fence' expects scope to be one of workgroup, device, system, found "warp"}}
%a1, %a3 = gpu.fence "warp" %m1, %m3


// -----

// A shuffle's mode is one of xor, up, down, idx.
%m1, %m3, %v, %o = "test.op"() : () -> (!mem.M<1>, !mem.M<3>, i32, i32)
// expected-error @below {{'gpu.shuffle' expects mode to be one of xor, up, down, idx, found "rotate"}}
%a1, %a3, %r, %ok = gpu.shuffle "rotate" %m1, %m3, %v, %o, %o : i32


// -----

// It shuffles scalars of 32 or 64 bits.
%m1, %m3, %v, %o = "test.op"() : () -> (!mem.M<1>, !mem.M<3>, i16, i32)
// expected-error @below {{'gpu.shuffle' expects a scalar of 32 or 64 bits (an integer, index, f32 or f64), found i16}}
%a1, %a3, %r, %ok = gpu.shuffle "xor" %m1, %m3, %v, %o, %o : i16


// -----

// Its offset and width are i32 (the generic form can say otherwise).
%m1, %m3, %v, %o = "test.op"() : () -> (!mem.M<1>, !mem.M<3>, i32, i64)
// expected-error @below {{'gpu.shuffle' expects its offset to be i32}}
%a1, %a3, %r, %ok = "gpu.shuffle"(%m1, %m3, %v, %o, %o) <{mode = "xor"}> : (!mem.M<1>, !mem.M<3>, i32, i64, i64) -> (!mem.M<1>, !mem.M<3>, i32, i1)


// -----

%m1, %m3, %v, %o = "test.op"() : () -> (!mem.M<1>, !mem.M<3>, i32, i32)
// expected-error @below {{'gpu.shuffle' expects its result to be i32, found i64}}
%a1, %a3, %r, %ok = "gpu.shuffle"(%m1, %m3, %v, %o, %o) <{mode = "xor"}> : (!mem.M<1>, !mem.M<3>, i32, i32, i32) -> (!mem.M<1>, !mem.M<3>, i64, i1)


// -----

%m1, %m3, %v, %o = "test.op"() : () -> (!mem.M<1>, !mem.M<3>, i32, i32)
// expected-error @below {{'gpu.shuffle' expects its valid flag to be i1}}
%a1, %a3, %r, %ok = "gpu.shuffle"(%m1, %m3, %v, %o, %o) <{mode = "xor"}> : (!mem.M<1>, !mem.M<3>, i32, i32, i32) -> (!mem.M<1>, !mem.M<3>, i32, i32)


// -----

// A width that an arith.constant gives is 1 to 32 lanes (any other width is checked when it runs).
%m1, %m3, %v, %o = "test.op"() : () -> (!mem.M<1>, !mem.M<3>, i32, i32)
%w = arith.constant 0 : i32
// expected-error @below {{'gpu.shuffle' expects a width of 1 to 32 lanes, found the constant 0}}
%a1, %a3, %r, %ok = gpu.shuffle "down" %m1, %m3, %v, %o, %w : i32


// -----

%m1, %m3, %v, %o = "test.op"() : () -> (!mem.M<1>, !mem.M<3>, f32, i32)
%w = arith.constant 33 : i32
// expected-error @below {{'gpu.shuffle' expects a width of 1 to 32 lanes, found the constant 33}}
%a1, %a3, %r, %ok = gpu.shuffle "xor" %m1, %m3, %v, %o, %w : f32


// -----

// The constant is read as signed, as it runs.
%m1, %m3, %v, %o = "test.op"() : () -> (!mem.M<1>, !mem.M<3>, i64, i32)
%w = arith.constant -1 : i32
// expected-error @below {{'gpu.shuffle' expects a width of 1 to 32 lanes, found the constant -1}}
%a1, %a3, %r, %ok = gpu.shuffle "idx" %m1, %m3, %v, %o, %w : i64
