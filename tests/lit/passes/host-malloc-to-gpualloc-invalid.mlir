// RUN: gpu-opt %s -p host-malloc-to-gpualloc --verify-diagnostics --split-input-file

// A host malloc of a run-time array needs its element's size to turn the byte size into an
// extent: an element of unknown size ...

func.func @f(%m1: !mem.M<1>, %bytes: index) -> !mem.M<1> {
  // expected-error @below {{cannot turn the byte size of `mem.malloc` into an extent of !mem.array<? x !gpu.stream>: !gpu.stream has no known non-zero size}}
  %a, %p = mem.malloc %m1, %bytes : !mem.ptr<!mem.array<? x !gpu.stream>, 1>
  func.return %a : !mem.M<1>
}


// -----

// ... or of size zero cannot be counted.

func.func @f(%m1: !mem.M<1>, %bytes: index) -> !mem.M<1> {
  // expected-error @below {{cannot turn the byte size of `mem.malloc` into an extent of !mem.array<? x !mem.array<0 x i32>>: !mem.array<0 x i32> has no known non-zero size}}
  %a, %p = mem.malloc %m1, %bytes : !mem.ptr<!mem.array<? x !mem.array<0 x i32>>, 1>
  func.return %a : !mem.M<1>
}
