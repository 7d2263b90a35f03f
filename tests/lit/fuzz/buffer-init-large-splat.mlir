// RUN: timeout 20 gpu-opt %s -p buffer-lower-ptr | filecheck %s
//
// Found by the fuzzer (tests/fuzz): an extent mutated to 1000000 made `buffer-lower-ptr` (and
// every pipeline through it) run for minutes on a splat `buffer.init`: it built an attribute
// per element to find out that all are equal, and its type conversion printed the whole
// literal into the error message of every attribute that is not a buffer type. The splat is
// now found on the literal's bytes and the conversion tests the type directly: well under a
// second for these 8 million elements.

func.func @init(%m: !mem.M<0>) -> (!mem.M<0>, !buffer.buf<2x4000000xf32>) {
  %m2, %b = buffer.init %m dense<1.5> : tensor<2x4000000xf32>
  func.return %m2, %b : !mem.M<0>, !buffer.buf<2x4000000xf32>
}

// CHECK:      %{{.*}}, %{{.*}} = mem.alloc %m : !mem.ptr<!mem.array<2 x !mem.array<4000000 x f32>>, 0>
// CHECK:      arith.constant 1.500000e+00 : f32
// CHECK:      scf.for
// CHECK:        scf.for
// CHECK:          mem.store
