// gpu.printf's C conversions: widths, flags and precisions of integers and floats, %x / %X / %o
// / %u / %c, length modifiers, %% and inf / nan, as C's printf prints the same values (the
// expected lines are a C program's output; tests/test_kernel_printf.py compares a larger
// matrix with cc's printf). An integer is passed as the argument its conversion reads: %u of
// an i8 -1 is 4294967295 (C's promotion of a signed char), %d of an i64 its low 32 bits.
// RUN: gpu-run %s --provider interp | filecheck %s --match-full-lines --strict-whitespace
// RUN: gpu-run %s --provider cpu | filecheck %s --match-full-lines --strict-whitespace
// RUN: gpu-opt %s | filecheck %s --check-prefix=IMPORTED

// CHECK:[   65] [-42  ] [-0042] [+65] [ 65] [065] [-42]
// CHECK-NEXT:[ff] [FF] [0xff] [000000ff] [10] [010] [4294967254]
// CHECK-NEXT:[4294967295] [ff] [10000000007] [7] [1099511627783]
// CHECK-NEXT:[A] [  A] [A  ] [%] [100%]
// CHECK-NEXT:[3.250   ] [3.3333e-01] [1E-10] [3.25000] [+3] [-0003.25]
// CHECK-NEXT:[nan] [ -inf] [inf   ] [INF]
// CHECK-EMPTY:

// IMPORTED: printf.print_format "[{}] [{}] [{}] [{}] [{}] [{}] [{}]\0A", {{.*}} {gpu.printf_specs = ["5d", "-5d", "05d", "+d", " d", ".3d", "i"]}

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @formats() kernel {
      %n = arith.constant 65 : i32
      %m = arith.constant -42 : i32
      %ff = arith.constant 255 : i32
      %eight = arith.constant 8 : i32
      %b = arith.constant -1 : i8
      %w = arith.constant 1099511627783 : i64
      %f = arith.constant 3.25 : f32
      %mf = arith.constant -3.25 : f32
      %third = arith.constant 0.33333333333333331 : f64
      %tiny = arith.constant 1.0e-10 : f32
      %nan = arith.constant 0x7FC00000 : f32
      %ninf = arith.constant 0xFF800000 : f32
      %inf = arith.constant 0x7F800000 : f32
      gpu.printf "[%5d] [%-5d] [%05d] [%+d] [% d] [%.3d] [%i]\n", %n, %m, %m, %n, %n, %n, %m : i32, i32, i32, i32, i32, i32, i32
      gpu.printf "[%x] [%X] [%#x] [%08x] [%o] [%#o] [%u]\n", %ff, %ff, %ff, %ff, %eight, %eight, %m : i32, i32, i32, i32, i32, i32, i32
      gpu.printf "[%u] [%hhx] [%llx] [%d] [%lld]\n", %b, %b, %w, %w, %w : i8, i8, i64, i64, i64
      gpu.printf "[%c] [%3c] [%-3c] [%%] [100%%]\n", %n, %n, %n : i32, i32, i32
      gpu.printf "[%-8.3f] [%10.4e] [%G] [%#g] [%+.0f] [%08.2f]\n", %f, %third, %tiny, %f, %f, %mf : f32, f64, f32, f32, f32, f32
      gpu.printf "[%f] [%5.1f] [%-6e] [%F]\n", %nan, %ninf, %inf, %inf : f32, f32, f32, f32
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@formats blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }
}
