// RUN: gpu-opt %s -p mem-checks --verify-diagnostics --split-input-file

// No token crosses the device boundary as a kernel argument: a device token ...

func.func @k(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
             %group: index, %item: index, %t: !mem.M<1>)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
  func.return %m1, %m3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}

func.func @main(%m: !mem.M<0>) -> !mem.M<0> {
  %m0, %m1, %m4 = gpu.init %m
  %s = gpu.default_stream
  %one = arith.constant 1 : index
  // expected-error @below {{You may not pass any !mem.M across the device boundary: passing %m1 : !mem.M<1> from host to kernel @k}}
  %l0, %l1, %l4 = gpu.launch @k grid(%one, %one) stream(%s) mems(%m0, %m1, %m4) args(%m1) : (!mem.M<1>)
  %done = gpu.deinit %l0, %l1, %l4
  func.return %done : !mem.M<0>
}


// -----

// ... the host token (an unnamed value is named by its position among the kernel arguments) ...

func.func @k(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
             %group: index, %item: index, %x: i32, %t: !mem.M<0>)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
  func.return %m1, %m3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}

func.func @main(%m: !mem.M<0>, %x: i32) -> !mem.M<0> {
  %m0, %m1, %m4 = gpu.init %m
  %s = gpu.default_stream
  %one = arith.constant 1 : index
  %0 = mem.remem %m0 : !mem.M<0>
  // expected-error @below {{You may not pass any !mem.M across the device boundary: passing kernel argument #1 : !mem.M<0> from host to kernel @k}}
  %l0, %l1, %l4 = gpu.launch @k grid(%one, %one) stream(%s) mems(%m0, %m1, %m4) args(%x, %0) : (i32, !mem.M<0>)
  %done = gpu.deinit %l0, %l1, %l4
  func.return %done : !mem.M<0>
}


// -----

// ... also after split-apply, where the launch names @device::@k.

builtin.module {
  builtin.module @host {
    func.func @main(%m: !mem.M<0>) -> !mem.M<0> {
      %m0, %m1, %m4 = gpu.init %m
      %s = gpu.default_stream
      %one = arith.constant 1 : index
      // expected-error @below {{You may not pass any !mem.M across the device boundary: passing %m4 : !mem.M<4> from host to kernel @device::@k}}
      %l0, %l1, %l4 = gpu.launch @device::@k grid(%one, %one) stream(%s) mems(%m0, %m1, %m4) args(%m4) : (!mem.M<4>)
      %done = gpu.deinit %l0, %l1, %l4
      func.return %done : !mem.M<0>
    }
  }
  builtin.module @device attributes {gpu.device} {
    func.func @k(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
                 %group: index, %item: index, %t: !mem.M<4>)
        -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) attributes {gpu.kernel} {
      func.return %m1, %m3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
    }
  }
}


// -----

// main takes the host token only ...

// expected-error @below {{@main may not take !mem.M<1> (argument #1): a !mem.M with a non-zero address space cannot come from outside the program; create it with gpu.init}}
func.func @main(%m: !mem.M<0>, %m1: !mem.M<1>) -> !mem.M<0> {
  func.return %m : !mem.M<0>
}


// -----

// ... and returns it only.

// expected-error @below {{@main may not return !mem.M<4> (result #2): a !mem.M with a non-zero address space cannot leave the program; consume it with gpu.deinit}}
func.func @main(%m: !mem.M<0>) -> (!mem.M<0>, i32, !mem.M<4>) {
  %m0, %m1, %m4 = gpu.init %m
  %x = arith.constant 0 : i32
  func.return %m0, %x, %m4 : !mem.M<0>, i32, !mem.M<4>
}
