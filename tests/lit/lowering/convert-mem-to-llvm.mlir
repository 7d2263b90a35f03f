// RUN: gpu-opt %s -p convert-mem-to-llvm --split-input-file | filecheck %s
// RUN: gpu-opt %s -p convert-mem-to-llvm --split-input-file --mlir-pass-statistics -o /dev/null 2>&1 | filecheck %s --check-prefix=STATS

// The statistics of the whole file: 21 mem ops; the slot and the mslot in space 3 are the two
// shared globals.
// STATS:      {{^}}ConvertMemToLlvm
// STATS-NEXT:   (S) 21 num-ops-lowered    - Number of mem ops lowered to the llvm dialect
// STATS-NEXT:   (S)  2 num-shared-globals - Number of shared-memory slots made globals

// Loads and stores through pointers of every device space become llvm.load / llvm.store on
// !llvm.ptr<a>; mem.lea becomes an inbounds GEP over the element type (nested arrays: one GEP
// per level). Result tokens are their operand tokens; casts bridge to the unconverted ops.
builtin.module attributes {gpu.device} {
  func.func @access(%m0: !mem.M<0>, %m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
                    %g: !mem.ptr<!mem.array<? x !mem.array<4 x f32>>, 1>, %s: !mem.ptr<i32, 3>,
                    %c: !mem.ptr<!mem.array<8 x index>, 4>, %l: !mem.ptr<!mem.ptr<f32, 1>, 5>,
                    %h: !mem.ptr<f64, 0>, %i: index)
      -> (!mem.M<0>, !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
    %row = mem.lea %g, %i : !mem.ptr<!mem.array<? x !mem.array<4 x f32>>, 1>
    %cell = mem.lea %row, %i : !mem.ptr<!mem.array<4 x f32>, 1>
    %a1, %x = mem.load %m1, %cell : !mem.ptr<f32, 1>
    %b1 = mem.store %a1, %cell, %x : !mem.ptr<f32, 1>
    %a3, %y = mem.load %m3, %s : !mem.ptr<i32, 3>
    %b3 = mem.store %a3, %s, %y : !mem.ptr<i32, 3>
    %ce = mem.lea %c, %i : !mem.ptr<!mem.array<8 x index>, 4>
    %a4, %z = mem.load %m4, %ce : !mem.ptr<index, 4>
    %a5, %p = mem.load %m5, %l : !mem.ptr<!mem.ptr<f32, 1>, 5>
    %b5 = mem.store %a5, %l, %p : !mem.ptr<!mem.ptr<f32, 1>, 5>
    %a0, %w = mem.load %m0, %h : !mem.ptr<f64, 0>
    %r5 = mem.remem %b5 : !mem.M<5>
    func.return %a0, %b1, %b3, %a4, %r5 : !mem.M<0>, !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
  }
}

// CHECK: builtin.module attributes {gpu.device} {
// CHECK-NEXT:   func.func @access(%m0: !mem.M<0>, %m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>, %g: !mem.ptr<!mem.array<? x !mem.array<4 x f32>>, 1>, %s: !mem.ptr<i32, 3>, %c: !mem.ptr<!mem.array<8 x index>, 4>, %l: !mem.ptr<!mem.ptr<f32, 1>, 5>, %h: !mem.ptr<f64, 0>, %i: index) -> (!mem.M<0>, !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
// CHECK-NEXT:     %0 = builtin.unrealized_conversion_cast %g : !mem.ptr<!mem.array<? x !mem.array<4 x f32>>, 1> to !llvm.ptr<1>
// CHECK-NEXT:     %1 = builtin.unrealized_conversion_cast %i : index to i64
// CHECK-NEXT:     %2 = llvm.getelementptr inbounds %0[%1] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, !llvm.array<4 x f32>
// CHECK-NEXT:     %row = builtin.unrealized_conversion_cast %2 : !llvm.ptr<1> to !mem.ptr<!mem.array<4 x f32>, 1>
// CHECK-NEXT:     %3 = builtin.unrealized_conversion_cast %i : index to i64
// CHECK-NEXT:     %4 = llvm.getelementptr inbounds %2[%3] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
// CHECK-NEXT:     %cell = builtin.unrealized_conversion_cast %4 : !llvm.ptr<1> to !mem.ptr<f32, 1>
// CHECK-NEXT:     %x = llvm.load %4 : !llvm.ptr<1> -> f32
// CHECK-NEXT:     llvm.store %x, %4 : f32, !llvm.ptr<1>
// CHECK-NEXT:     %5 = builtin.unrealized_conversion_cast %s : !mem.ptr<i32, 3> to !llvm.ptr<3>
// CHECK-NEXT:     %y = llvm.load %5 : !llvm.ptr<3> -> i32
// CHECK-NEXT:     %6 = builtin.unrealized_conversion_cast %s : !mem.ptr<i32, 3> to !llvm.ptr<3>
// CHECK-NEXT:     llvm.store %y, %6 : i32, !llvm.ptr<3>
// CHECK-NEXT:     %7 = builtin.unrealized_conversion_cast %c : !mem.ptr<!mem.array<8 x index>, 4> to !llvm.ptr<4>
// CHECK-NEXT:     %8 = builtin.unrealized_conversion_cast %i : index to i64
// CHECK-NEXT:     %9 = llvm.getelementptr inbounds %7[%8] : (!llvm.ptr<4>, i64) -> !llvm.ptr<4>, i64
// CHECK-NEXT:     %ce = builtin.unrealized_conversion_cast %9 : !llvm.ptr<4> to !mem.ptr<index, 4>
// CHECK-NEXT:     %10 = llvm.load %9 : !llvm.ptr<4> -> i64
// CHECK-NEXT:     %z = builtin.unrealized_conversion_cast %10 : i64 to index
// CHECK-NEXT:     %11 = builtin.unrealized_conversion_cast %l : !mem.ptr<!mem.ptr<f32, 1>, 5> to !llvm.ptr<5>
// CHECK-NEXT:     %12 = llvm.load %11 : !llvm.ptr<5> -> !llvm.ptr<1>
// CHECK-NEXT:     %p = builtin.unrealized_conversion_cast %12 : !llvm.ptr<1> to !mem.ptr<f32, 1>
// CHECK-NEXT:     %13 = builtin.unrealized_conversion_cast %l : !mem.ptr<!mem.ptr<f32, 1>, 5> to !llvm.ptr<5>
// CHECK-NEXT:     llvm.store %12, %13 : !llvm.ptr<1>, !llvm.ptr<5>
// CHECK-NEXT:     %14 = builtin.unrealized_conversion_cast %h : !mem.ptr<f64, 0> to !llvm.ptr
// CHECK-NEXT:     %w = llvm.load %14 : !llvm.ptr -> f64
// CHECK-NEXT:     func.return %m0, %m1, %m3, %m4, %m5 : !mem.M<0>, !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
// CHECK-NEXT:   }
// CHECK-NEXT: }

// -----

// Slots: in shared memory one internal addrspace(3) global per op (a mem.mslot needs a
// constant size); in local and generic memory an alloca at the function's entry (a dynamic
// mem.mslot where it is), cast to addrspace(5) for local memory.
builtin.module attributes {gpu.device} {
  func.func @slots(%m0: !mem.M<0>, %m3: !mem.M<3>, %m5: !mem.M<5>, %n: index)
      -> (!mem.M<0>, !mem.M<3>, !mem.M<5>) {
    %sixteen = arith.constant 16 : index
    %a3, %tile = mem.slot %m3 : !mem.ptr<!mem.array<8 x f32>, 3>
    %b3, %raw = mem.mslot %a3, %sixteen : !mem.ptr<!mem.array<16 x i8>, 3>
    %a5, %loc = mem.slot %m5 : !mem.ptr<!mem.array<4 x i64>, 5>
    %b5, %dyn = mem.mslot %a5, %n : !mem.ptr<!mem.array<? x i8>, 5>
    %a0, %gen = mem.slot %m0 : !mem.ptr<f32, 0>
    func.return %a0, %b3, %b5 : !mem.M<0>, !mem.M<3>, !mem.M<5>
  }
}

// CHECK: builtin.module attributes {gpu.device} {
// CHECK-NEXT:   llvm.mlir.global internal @__shared_slots_0() {addr_space = 3 : i32, alignment = 4 : i64} : !llvm.array<8 x f32>
// CHECK-NEXT:   llvm.mlir.global internal @__shared_slots_1() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<16 x i8>
// CHECK-NEXT:   func.func @slots(%m0: !mem.M<0>, %m3: !mem.M<3>, %m5: !mem.M<5>, %n: index) -> (!mem.M<0>, !mem.M<3>, !mem.M<5>) {
// CHECK-NEXT:     %0 = llvm.mlir.constant(1) : i64
// CHECK-NEXT:     %1 = llvm.alloca %0 x f32 {alignment = 4 : i64} : (i64) -> !llvm.ptr
// CHECK-NEXT:     %2 = llvm.mlir.constant(1) : i64
// CHECK-NEXT:     %3 = llvm.alloca %2 x !llvm.array<4 x i64> {alignment = 8 : i64} : (i64) -> !llvm.ptr
// CHECK-NEXT:     %4 = llvm.addrspacecast %3 : !llvm.ptr to !llvm.ptr<5>
// CHECK-NEXT:     %sixteen = arith.constant 16 : index
// CHECK-NEXT:     %5 = llvm.mlir.addressof @__shared_slots_0 : !llvm.ptr<3>
// CHECK-NEXT:     %tile = builtin.unrealized_conversion_cast %5 : !llvm.ptr<3> to !mem.ptr<!mem.array<8 x f32>, 3>
// CHECK-NEXT:     %6 = llvm.mlir.addressof @__shared_slots_1 : !llvm.ptr<3>
// CHECK-NEXT:     %raw = builtin.unrealized_conversion_cast %6 : !llvm.ptr<3> to !mem.ptr<!mem.array<16 x i8>, 3>
// CHECK-NEXT:     %loc = builtin.unrealized_conversion_cast %4 : !llvm.ptr<5> to !mem.ptr<!mem.array<4 x i64>, 5>
// CHECK-NEXT:     %7 = builtin.unrealized_conversion_cast %n : index to i64
// CHECK-NEXT:     %8 = llvm.alloca %7 x i8 {alignment = 16 : i64} : (i64) -> !llvm.ptr
// CHECK-NEXT:     %9 = llvm.addrspacecast %8 : !llvm.ptr to !llvm.ptr<5>
// CHECK-NEXT:     %dyn = builtin.unrealized_conversion_cast %9 : !llvm.ptr<5> to !mem.ptr<!mem.array<? x i8>, 5>
// CHECK-NEXT:     %gen = builtin.unrealized_conversion_cast %1 : !llvm.ptr to !mem.ptr<f32, 0>
// CHECK-NEXT:     func.return %m0, %m3, %m5 : !mem.M<0>, !mem.M<3>, !mem.M<5>
// CHECK-NEXT:   }
// CHECK-NEXT: }

// -----

// The device heap: malloc and free of CUDA's device runtime, in the generic space, cast from
// and to addrspace(1). mem.alloc computes the size in bytes.
builtin.module attributes {gpu.device} {
  func.func @heap(%m1: !mem.M<1>, %n: index) -> !mem.M<1> {
    %a1, %one = mem.alloc %m1 : !mem.ptr<!mem.array<3 x i16>, 1>
    %b1, %many = mem.alloc %a1, %n : !mem.ptr<!mem.array<? x f64>, 1>
    %c1, %bytes = mem.malloc %b1, %n : !mem.ptr<i8, 1>
    %d1 = mem.free %c1, %many : !mem.ptr<!mem.array<? x f64>, 1>
    func.return %d1 : !mem.M<1>
  }
}

// CHECK: builtin.module attributes {gpu.device} {
// CHECK-NEXT:   llvm.func @free(!llvm.ptr)
// CHECK-NEXT:   llvm.func @malloc(i64) -> !llvm.ptr
// CHECK-NEXT:   func.func @heap(%m1: !mem.M<1>, %n: index) -> !mem.M<1> {
// CHECK-NEXT:     %0 = llvm.mlir.constant(6) : i64
// CHECK-NEXT:     %1 = llvm.call @malloc(%0) : (i64) -> !llvm.ptr
// CHECK-NEXT:     %2 = llvm.addrspacecast %1 : !llvm.ptr to !llvm.ptr<1>
// CHECK-NEXT:     %one = builtin.unrealized_conversion_cast %2 : !llvm.ptr<1> to !mem.ptr<!mem.array<3 x i16>, 1>
// CHECK-NEXT:     %3 = builtin.unrealized_conversion_cast %n : index to i64
// CHECK-NEXT:     %4 = llvm.mlir.constant(8) : i64
// CHECK-NEXT:     %5 = llvm.mul %3, %4 : i64
// CHECK-NEXT:     %6 = llvm.call @malloc(%5) : (i64) -> !llvm.ptr
// CHECK-NEXT:     %7 = llvm.addrspacecast %6 : !llvm.ptr to !llvm.ptr<1>
// CHECK-NEXT:     %many = builtin.unrealized_conversion_cast %7 : !llvm.ptr<1> to !mem.ptr<!mem.array<? x f64>, 1>
// CHECK-NEXT:     %8 = builtin.unrealized_conversion_cast %n : index to i64
// CHECK-NEXT:     %9 = llvm.call @malloc(%8) : (i64) -> !llvm.ptr
// CHECK-NEXT:     %10 = llvm.addrspacecast %9 : !llvm.ptr to !llvm.ptr<1>
// CHECK-NEXT:     %bytes = builtin.unrealized_conversion_cast %10 : !llvm.ptr<1> to !mem.ptr<i8, 1>
// CHECK-NEXT:     %11 = llvm.addrspacecast %7 : !llvm.ptr<1> to !llvm.ptr
// CHECK-NEXT:     llvm.call @free(%11) : (!llvm.ptr) -> ()
// CHECK-NEXT:     func.return %m1 : !mem.M<1>
// CHECK-NEXT:   }
// CHECK-NEXT: }
