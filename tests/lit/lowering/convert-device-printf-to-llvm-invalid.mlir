// convert-device-printf-to-llvm refuses what a record cannot hold, at the op.
// RUN: not gpu-opt %s -p convert-device-printf-to-llvm --split-input-file 2>&1 | filecheck %s

// CHECK: convert-device-printf-to-llvm-invalid.mlir:9:3: error: 'printf.print_format' cannot print a 128-bit integer in device code
builtin.module attributes {gpu.device} {
func.func @k(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
             %group: index, %item: index, %a: i128)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) attributes {gpu.kernel} {
  printf.print_format "{}\n", %a : i128
  func.return %m1, %m3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}
}

// -----

// CHECK: convert-device-printf-to-llvm-invalid.mlir:21:3: error: 'printf.print_format' cannot print a value of type !mem.ptr<i32, 1> in device code
builtin.module attributes {gpu.device} {
func.func @k(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
             %group: index, %item: index, %x: !mem.ptr<i32, 1>)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) attributes {gpu.kernel} {
  printf.print_format "{}\n", %x : !mem.ptr<i32, 1>
  func.return %m1, %m3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}
}

// -----

// CHECK: convert-device-printf-to-llvm-invalid.mlir:33:3: error: 'printf.print_format' prints 65 values; device code prints at most 64
builtin.module attributes {gpu.device} {
func.func @k(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
             %group: index, %item: index, %x: i32)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) attributes {gpu.kernel} {
  printf.print_format "{}{}{}{}{}{}{}{}{}{}{}{}{}{}{}{}{}{}{}{}{}{}{}{}{}{}{}{}{}{}{}{}{}{}{}{}{}{}{}{}{}{}{}{}{}{}{}{}{}{}{}{}{}{}{}{}{}{}{}{}{}{}{}{}{}", %x : i32, %x : i32, %x : i32, %x : i32, %x : i32, %x : i32, %x : i32, %x : i32, %x : i32, %x : i32, %x : i32, %x : i32, %x : i32, %x : i32, %x : i32, %x : i32, %x : i32, %x : i32, %x : i32, %x : i32, %x : i32, %x : i32, %x : i32, %x : i32, %x : i32, %x : i32, %x : i32, %x : i32, %x : i32, %x : i32, %x : i32, %x : i32, %x : i32, %x : i32, %x : i32, %x : i32, %x : i32, %x : i32, %x : i32, %x : i32, %x : i32, %x : i32, %x : i32, %x : i32, %x : i32, %x : i32, %x : i32, %x : i32, %x : i32, %x : i32, %x : i32, %x : i32, %x : i32, %x : i32, %x : i32, %x : i32, %x : i32, %x : i32, %x : i32, %x : i32, %x : i32, %x : i32, %x : i32, %x : i32, %x : i32
  func.return %m1, %m3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}
}
