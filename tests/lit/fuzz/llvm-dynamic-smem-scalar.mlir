// RUN: gpu-opt %s -t llvm | filecheck %s
// RUN: gpu-opt %s -t ptx | filecheck %s --check-prefix=PTX
//
// Found by the fuzzer (tests/fuzz): a kernel whose dynamic shared memory is a scalar
// (`!mem.ptr<i32, 3>`), stored to without a `mem.lea`, made `-t llvm` fail with an internal
// error: llvmlite typed `@__dynamic_smem` as a pointer to `[0 x i8]` and refused the i32 store.
// Globals are now opaque pointers, like every pointer of the llvm dialect.

func.func @k(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
             %group: index, %item: index, %p: !mem.ptr<i32, 3>, %x: i32)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) attributes {gpu.kernel} {
  %0 = mem.store %m3, %p, %x : !mem.ptr<i32, 3>
  func.return %m1, %0, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}

// CHECK: @__dynamic_smem = external addrspace(3) global [0 x i8], align 16
// CHECK: define ptx_kernel void @k(i32 %x)
// CHECK:   store i32 %x, ptr addrspace(3) @__dynamic_smem

// PTX: .extern .shared .align 16 .b8 __dynamic_smem[];
// PTX: st.shared.{{[bu]}}32 [__dynamic_smem], %r{{[0-9]+}};
