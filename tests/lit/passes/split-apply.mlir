// RUN: gpu-opt %s -p 'split-apply{host-pipeline="" device-pipeline=""}' --split-input-file | filecheck %s
// RUN: gpu-opt %s -p 'split-apply{host-pipeline="" device-pipeline=""}' --split-input-file | gpu-opt --split-input-file --print-op-generic | filecheck %s --check-prefix=GENERIC
// RUN: gpu-opt %s -p 'split-apply{host-pipeline="" device-pipeline=""}' --split-input-file --mlir-pass-statistics -o /dev/null 2>&1 | filecheck %s --check-prefix=STATS

// The statistics of the whole file: four modules split; @shared is copied into both.
// STATS:      {{^}}SplitApply
// STATS-NEXT:   (S) 1 num-functions-copied    - Number of functions copied into @host as well as @device
// STATS-NEXT:   (S) 5 num-functions-to-device - Number of functions moved into @device
// STATS-NEXT:   (S) 3 num-launches-retargeted - Number of launches pointed at their kernel in @device
// STATS-NEXT:   (S) 4 num-modules-split       - Number of modules split into @host and @device
// STATS-NEXT:   (S) 5 num-ops-to-host         - Number of top-level ops moved into @host
// STATS-NEXT:   'builtin.module' Pipeline @host
// STATS-NEXT:   'builtin.module' Pipeline @device

// The kernel and its callees go to @device, everything else to @host, each in the input order;
// @shared, called from both sides, is copied into both. The launch names @device::@k and
// still verifies; the external declaration stays on the host.

func.func private @ext(i32) -> i32

func.func @shared(%x: i32) -> i32 {
  func.return %x : i32
}

func.func @helper(%x: i32) -> i32 {
  %y = func.call @shared(%x) : (i32) -> i32
  func.return %y : i32
}

func.func @k(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
             %group: index, %item: index, %v: i32)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
  %y = func.call @helper(%v) : (i32) -> i32
  func.return %m1, %m3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}

func.func @main(%m: !mem.M<0>) -> !mem.M<0> {
  %m0, %m1, %m4 = gpu.init %m
  %s = gpu.default_stream
  %one = arith.constant 1 : index
  %v = arith.constant 7 : i32
  %w = func.call @shared(%v) : (i32) -> i32
  %e = func.call @ext(%w) : (i32) -> i32
  %l0, %l1, %l4 = gpu.launch @k grid(%one, %one) stream(%s) mems(%m0, %m1, %m4) args(%e) : (i32)
  %d = gpu.deinit %l0, %l1, %l4
  func.return %d : !mem.M<0>
}

// CHECK:      builtin.module {
// CHECK-NEXT:   builtin.module @host {
// CHECK-NEXT:     func.func private @ext(i32) -> i32
// CHECK-NEXT:     func.func @shared(%x: i32) -> i32 {
// CHECK-NEXT:       func.return %x : i32
// CHECK-NEXT:     }
// CHECK-NEXT:     func.func @main(%m: !mem.M<0>) -> !mem.M<0> {
// CHECK-NEXT:       %m0, %m1, %m4 = gpu.init %m
// CHECK-NEXT:       %s = gpu.default_stream
// CHECK-NEXT:       %one = arith.constant 1 : index
// CHECK-NEXT:       %v = arith.constant 7 : i32
// CHECK-NEXT:       %w = func.call @shared(%v) : (i32) -> i32
// CHECK-NEXT:       %e = func.call @ext(%w) : (i32) -> i32
// CHECK-NEXT:       %l0, %l1, %l4 = gpu.launch @device::@k grid(%one, %one) stream(%s) mems(%m0, %m1, %m4) args(%e) : (i32)
// CHECK-NEXT:       %d = gpu.deinit %l0, %l1, %l4
// CHECK-NEXT:       func.return %d : !mem.M<0>
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT:   builtin.module @device attributes {gpu.device} {
// CHECK-NEXT:     func.func @shared(%x: i32) -> i32 {
// CHECK-NEXT:       func.return %x : i32
// CHECK-NEXT:     }
// CHECK-NEXT:     func.func @helper(%x: i32) -> i32 {
// CHECK-NEXT:       %y = func.call @shared(%x) : (i32) -> i32
// CHECK-NEXT:       func.return %y : i32
// CHECK-NEXT:     }
// CHECK-NEXT:     func.func @k(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>, %group: index, %item: index, %v: i32) -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) attributes {gpu.kernel} {
// CHECK-NEXT:       %y = func.call @helper(%v) : (i32) -> i32
// CHECK-NEXT:       func.return %m1, %m3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT: }

// The generic form: two named modules, the kernel symbol nested.

// GENERIC:      "builtin.module"() ({
// GENERIC-NEXT:   "builtin.module"() <{sym_name = "host"}> ({
// GENERIC:          "gpu.launch"(%one, %one, %s, %m0, %m1, %m4, %e) <{kernel = @device::@k, operandSegmentSizes = array<i32: 1, 1, 1, 0, 1, 1, 1, 1>}>
// GENERIC:        "builtin.module"() <{sym_name = "device"}> ({
// GENERIC:          "func.func"() <{sym_name = "k", function_type = {{.*}}}> ({
// GENERIC:          }) {gpu.kernel} : () -> ()
// GENERIC-NEXT:   }) {gpu.device} : () -> ()
// GENERIC-NEXT: }) : () -> ()

// -----

// Without launches, every function is host code and @device is empty (but still there). Other
// top-level ops stay on the host.

"test.op"() {sym_name = "table"} : () -> ()

func.func @main(%m: !mem.M<0>, %x: i32) -> (!mem.M<0>, i32) {
  func.return %m, %x : !mem.M<0>, i32
}

// CHECK:      builtin.module {
// CHECK-NEXT:   builtin.module @host {
// CHECK-NEXT:     "test.op"() {sym_name = "table"} : () -> ()
// CHECK-NEXT:     func.func @main(%m: !mem.M<0>, %x: i32) -> (!mem.M<0>, i32) {
// CHECK-NEXT:       func.return %m, %x : !mem.M<0>, i32
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT:   builtin.module @device attributes {gpu.device} {
// CHECK-NEXT:   }
// CHECK-NEXT: }

// -----

// An empty module splits into two empty ones.

// CHECK:      builtin.module {
// CHECK-NEXT:   builtin.module @host {
// CHECK-NEXT:   }
// CHECK-NEXT:   builtin.module @device attributes {gpu.device} {
// CHECK-NEXT:   }
// CHECK-NEXT: }

// -----

// A function marked gpu.kernel is a kernel even when nothing launches it; the kernel launched
// twice (with shared memory) is moved once, and both launches name it in @device.

func.func @marked(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
                  %group: index, %item: index)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) attributes {gpu.kernel} {
  func.return %m1, %m3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}

func.func @twice(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
                 %group: index, %item: index, %smem: !mem.ptr<!mem.array<? x i32>, 3>)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
  func.return %m1, %m3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}

func.func @main(%m: !mem.M<0>) -> !mem.M<0> {
  %m0, %m1, %m4 = gpu.init %m
  %s = gpu.default_stream
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %a0, %a1, %a4 = gpu.launch @twice grid(%c1, %c8) stream(%s) smem(!mem.array<? x i32>, %c8) mems(%m0, %m1, %m4)
  %b0, %b1, %b4 = gpu.launch @twice grid(%c8, %c1) stream(%s) smem(!mem.array<? x i32>, %c1) mems(%a0, %a1, %a4)
  %d = gpu.deinit %b0, %b1, %b4
  func.return %d : !mem.M<0>
}

// CHECK:      builtin.module {
// CHECK-NEXT:   builtin.module @host {
// CHECK-NEXT:     func.func @main(%m: !mem.M<0>) -> !mem.M<0> {
// CHECK-NEXT:       %m0, %m1, %m4 = gpu.init %m
// CHECK-NEXT:       %s = gpu.default_stream
// CHECK-NEXT:       %c1 = arith.constant 1 : index
// CHECK-NEXT:       %c8 = arith.constant 8 : index
// CHECK-NEXT:       %a0, %a1, %a4 = gpu.launch @device::@twice grid(%c1, %c8) stream(%s) smem(!mem.array<? x i32>, %c8) mems(%m0, %m1, %m4)
// CHECK-NEXT:       %b0, %b1, %b4 = gpu.launch @device::@twice grid(%c8, %c1) stream(%s) smem(!mem.array<? x i32>, %c1) mems(%a0, %a1, %a4)
// CHECK-NEXT:       %d = gpu.deinit %b0, %b1, %b4
// CHECK-NEXT:       func.return %d : !mem.M<0>
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT:   builtin.module @device attributes {gpu.device} {
// CHECK-NEXT:     func.func @marked(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>, %group: index, %item: index) -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) attributes {gpu.kernel} {
// CHECK-NEXT:       func.return %m1, %m3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
// CHECK-NEXT:     }
// CHECK-NEXT:     func.func @twice(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>, %group: index, %item: index, %smem: !mem.ptr<!mem.array<? x i32>, 3>) -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) attributes {gpu.kernel} {
// CHECK-NEXT:       func.return %m1, %m3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT: }
