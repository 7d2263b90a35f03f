// RUN: gpu-opt %s -p buffer-lower-ptr --verify-diagnostics --split-input-file

// A pointer to nested arrays can only leave the outermost extent open.

func.func @inner(%m: !mem.M<0>, %n: index) -> !mem.M<0> {
  // expected-error @below {{cannot lower !buffer.buf<4x?xf32> to a pointer: only the outermost extent of a buffer may be '?'}}
  %m1, %b = buffer.alloc %m(%n) : !buffer.buf<4x?xf32>
  func.return %m1 : !mem.M<0>
}


// -----

// The check covers signatures too.

// expected-error @below {{cannot lower !buffer.buf<?x?xi32> to a pointer: only the outermost extent of a buffer may be '?'}}
func.func private @external(!buffer.buf<?x?xi32>)


// -----

// A pointer does not carry its run-time extent: buffer.shape of a `?` extent needs the
// buffer.alloc the buffer comes from ...

func.func @shape(%b: !buffer.buf<?x4xf32>) -> index {
  // expected-error @below {{'buffer.shape' needs the run-time extent of a !buffer.buf<?x4xf32>, which buffer-lower-ptr only knows for a buffer that comes from a buffer.alloc in the same function (directly or through buffer.write)}}
  %n = buffer.shape %b[0] : !buffer.buf<?x4xf32>
  func.return %n : index
}


// -----

// ... so does buffer.copy (neither buffer's allocation is in sight) ...

func.func @copy(%m: !mem.M<0>, %a: !buffer.buf<?xi8>, %b: !buffer.buf<?xi8>) -> !mem.M<0> {
  // expected-error @below {{'buffer.copy' needs the run-time extent of a !buffer.buf<?xi8>, which buffer-lower-ptr only knows for a buffer that comes from a buffer.alloc in the same function (directly or through buffer.write)}}
  %m1 = buffer.copy %m, %a, %b : !buffer.buf<?xi8>
  func.return %m1 : !mem.M<0>
}


// -----

// ... buffer.print (a loop-carried buffer is out of sight) ...

func.func @print(%m: !mem.M<0>, %n: index) -> !mem.M<0> {
  %m1, %b = buffer.alloc %m(%n) : !buffer.buf<?xi32>
  %lo = arith.constant 0 : index
  %one = arith.constant 1 : index
  %m3, %b3 = scf.for %i = %lo to %one step %one iter_args(%m2 = %m1, %b2 = %b)
      -> (!mem.M<0>, !buffer.buf<?xi32>) {
    scf.yield %m2, %b2 : !mem.M<0>, !buffer.buf<?xi32>
  }
  // expected-error @below {{'buffer.print' needs the run-time extent of a !buffer.buf<?xi32>, which buffer-lower-ptr only knows for a buffer that comes from a buffer.alloc in the same function (directly or through buffer.write)}}
  %m4 = buffer.print %m3, %b3 : !buffer.buf<?xi32>
  func.return %m4 : !mem.M<0>
}


// -----

// ... and gpu.buf_alloc_copy (a device allocation needs the extent).

func.func @device(%m: !mem.M<0>, %b: !buffer.buf<?x2xf32>) -> !mem.M<0> {
  %m0, %m1, %m4 = gpu.auto_init %m
  // expected-error @below {{'gpu.buf_alloc_copy' needs the run-time extent of a !buffer.buf<?x2xf32>, which buffer-lower-ptr only knows for a buffer that comes from a buffer.alloc in the same function (directly or through buffer.write)}}
  %c0, %c1, %d = gpu.buf_alloc_copy %m0, %m1, %b : !buffer.buf<?x2xf32> -> !mem.ptr<!mem.array<? x !mem.array<2 x f32>>, 1>
  %f1 = gpu.free.block %c1, %d : !mem.ptr<!mem.array<? x !mem.array<2 x f32>>, 1>
  %done = gpu.auto_deinit %c0, %f1, %m4
  func.return %done : !mem.M<0>
}


// -----

// The btensor ops read buffers: they are lowered first.

func.func @early(%m: !mem.M<0>, %x: !buffer.buf<4xf32>) -> (!mem.M<0>, !buffer.buf<4xf32>) {
  %zero = arith.constant 0.0 : f32
  // expected-error @below {{'btensor.map_reduce' must be lowered before buffer-lower-ptr (by lower-btensor-map-reduce or btensor-lower-map-reduce)}}
  %m1, %y = btensor.map_reduce %m ins(%x : !buffer.buf<4xf32>) init(%zero : f32)
      {out_rank = 1 : i64, shape = array<i64: 4>, maps = [affine_map<(i) -> (i)>],
      out_map = affine_map<(i) -> (i)>} combiner {
    ^bb0(%acc: f32, %v: f32):
      btensor.yield %v : f32
  } : !buffer.buf<4xf32>
  func.return %m1, %y : !mem.M<0>, !buffer.buf<4xf32>
}


// -----

// Literals and printing handle integer, index and float elements.

func.func @init(%m: !mem.M<0>) -> !mem.M<0> {
  // expected-error @below {{'buffer.init' cannot lower a literal of complex<f32> elements}}
  %m1, %b = buffer.init %m dense<[(1.0, 2.0), (3.0, 4.0)]> : tensor<2xcomplex<f32>>
  func.return %m1 : !mem.M<0>
}


// -----

func.func @print(%m: !mem.M<0>, %b: !buffer.buf<3xcomplex<f64>>) -> !mem.M<0> {
  // expected-error @below {{'buffer.print' can only print integer, index or float elements, found complex<f64>}}
  %m1 = buffer.print %m, %b : !buffer.buf<3xcomplex<f64>>
  func.return %m1 : !mem.M<0>
}


// -----

// A view is lowered in the function whose view op makes it: not as a parameter ...

// expected-error @below {{cannot lower the view !buffer.buf<3x2xf32, strided<[1, 3]>> in a signature: buffer-lower-ptr lowers a view only in the function whose view op makes it}}
func.func @takes_view(%m: !mem.M<0>, %v: !buffer.buf<3x2xf32, strided<[1, 3]>>) -> !mem.M<0> {
  func.return %m : !mem.M<0>
}


// -----

// ... nor passed on (copy it into a dense buffer first) ...

func.func private @consume(!buffer.buf<2x6xf32>)

func.func @passes_view(%a: !buffer.buf<4x6xf32>) {
  %d = buffer.subview %a[0, 0] [2, 6] [1, 1] : !buffer.buf<4x6xf32> to !buffer.buf<2x6xf32>
  // expected-error @below {{'func.call' uses the view !buffer.buf<2x6xf32>, which buffer-lower-ptr lowers only for buffer.read/write/shape/copy/print and other views in its function (copy it into a dense buffer first)}}
  func.call @consume(%d) : (!buffer.buf<2x6xf32>) -> ()
  func.return
}


// -----

// ... nor copied to the device: transfers are dense.

func.func @uploads_view(%m0: !mem.M<0>, %m1: !mem.M<1>, %a: !buffer.buf<4x6xf32>) -> !mem.M<0> {
  %t = buffer.transpose %a [1, 0] : !buffer.buf<4x6xf32> to !buffer.buf<6x4xf32, strided<[1, 6]>>
  // expected-error @below {{'gpu.buf_alloc_copy' copies dense buffers only (transfers are dense), found the view !buffer.buf<6x4xf32, strided<[1, 6]>>: buffer.copy it into a dense buffer first}}
  %n0, %n1, %p = gpu.buf_alloc_copy %m0, %m1, %t : !buffer.buf<6x4xf32, strided<[1, 6]>> -> !mem.ptr<!mem.array<6 x !mem.array<4 x f32>>, 1>
  func.return %n0 : !mem.M<0>
}
