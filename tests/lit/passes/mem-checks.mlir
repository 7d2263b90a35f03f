// RUN: gpu-opt %s -p mem-checks --split-input-file | filecheck %s
// RUN: gpu-opt %s -p mem-checks --split-input-file --mlir-pass-statistics -o /dev/null 2>&1 | filecheck %s --check-prefix=STATS

// The statistics of the whole file: one launch and two @main functions checked.
// STATS:      {{^}}MemChecks
// STATS-NEXT:   (S) 2 num-entry-points-checked - Number of @main signatures checked
// STATS-NEXT:   (S) 1 num-launches-checked     - Number of gpu.launch ops checked

// mem-checks only checks: a program whose tokens stay on their side is left as it is.

func.func @kernel(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
                  %group: index, %item: index, %out: !mem.ptr<i32, 1>, %x: i32)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
  %a = mem.store %m1, %out, %x : !mem.ptr<i32, 1>
  func.return %a, %m3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}

func.func @main(%m: !mem.M<0>, %x: i32) -> (!mem.M<0>, i32) {
  %m0, %m1, %m4 = gpu.init %m
  %a1, %dev = gpu.alloc.block %m1 : !mem.ptr<i32, 1>
  %s = gpu.default_stream
  %one = arith.constant 1 : index
  %l0, %l1, %l4 = gpu.launch @kernel grid(%one, %one) stream(%s) mems(%m0, %a1, %m4) args(%dev, %x) : (!mem.ptr<i32, 1>, i32)
  %f1 = gpu.free.block %l1, %dev : !mem.ptr<i32, 1>
  %done = gpu.deinit %l0, %f1, %l4
  func.return %done, %x : !mem.M<0>, i32
}

// CHECK:      func.func @kernel(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>, %group: index, %item: index, %out: !mem.ptr<i32, 1>, %x: i32) -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
// CHECK-NEXT:   %a = mem.store %m1, %out, %x : !mem.ptr<i32, 1>
// CHECK-NEXT:   func.return %a, %m3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
// CHECK-NEXT: }
// CHECK-NEXT: func.func @main(%m: !mem.M<0>, %x: i32) -> (!mem.M<0>, i32) {
// CHECK-NEXT:   %m0, %m1, %m4 = gpu.init %m
// CHECK-NEXT:   %a1, %dev = gpu.alloc.block %m1 : !mem.ptr<i32, 1>
// CHECK-NEXT:   %s = gpu.default_stream
// CHECK-NEXT:   %one = arith.constant 1 : index
// CHECK-NEXT:   %l0, %l1, %l4 = gpu.launch @kernel grid(%one, %one) stream(%s) mems(%m0, %a1, %m4) args(%dev, %x) : (!mem.ptr<i32, 1>, i32)
// CHECK-NEXT:   %f1 = gpu.free.block %l1, %dev : !mem.ptr<i32, 1>
// CHECK-NEXT:   %done = gpu.deinit %l0, %f1, %l4
// CHECK-NEXT:   func.return %done, %x : !mem.M<0>, i32
// CHECK-NEXT: }

// -----

// Other functions may take and return device tokens; so may a kernel named main.
func.func @helper(%m1: !mem.M<1>, %m4: !mem.M<4>) -> (!mem.M<1>, !mem.M<4>) {
  func.return %m1, %m4 : !mem.M<1>, !mem.M<4>
}

builtin.module @device attributes {gpu.device} {
  func.func @main(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
                  %group: index, %item: index)
      -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) attributes {gpu.kernel} {
    func.return %m1, %m3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
  }
}

// CHECK:      func.func @helper(%m1: !mem.M<1>, %m4: !mem.M<4>) -> (!mem.M<1>, !mem.M<4>) {
// CHECK-NEXT:   func.return %m1, %m4 : !mem.M<1>, !mem.M<4>
// CHECK-NEXT: }
// CHECK-NEXT: builtin.module @device attributes {gpu.device} {
// CHECK-NEXT:   func.func @main(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>, %group: index, %item: index) -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) attributes {gpu.kernel} {
// CHECK-NEXT:     func.return %m1, %m3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
// CHECK-NEXT:   }
// CHECK-NEXT: }

// -----

// A main declaration with only the host token is fine.
func.func private @main(!mem.M<0>, f32) -> (!mem.M<0>, f32)

// CHECK:      func.func private @main(!mem.M<0>, f32) -> (!mem.M<0>, f32)
