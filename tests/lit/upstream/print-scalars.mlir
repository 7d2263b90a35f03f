// mlir-runner's scalar print functions in host code: printF32 / printF64 print C's %g (as
// mlir-runner-22 prints this very program), printComma and printNewline their text. With no
// gpu op or memref in it, the program is read as upstream MLIR by --upstream.
// RUN: gpu-run %s --provider interp --upstream | filecheck %s --match-full-lines
// RUN: gpu-run %s --provider cpu --upstream | filecheck %s --match-full-lines

// CHECK: 3, 0.333333, 1e+06, 1.23457e+08

func.func private @printF32(f32)
func.func private @printF64(f64)
func.func private @printNewline()
func.func private @printComma()
func.func @main() {
  %a = arith.constant 3.0 : f32
  %b = arith.constant 0.33333334 : f32
  %c = arith.constant 1.0e6 : f64
  %d = arith.constant 123456789.0 : f64
  call @printF32(%a) : (f32) -> ()
  call @printComma() : () -> ()
  call @printF32(%b) : (f32) -> ()
  call @printComma() : () -> ()
  call @printF64(%c) : (f64) -> ()
  call @printComma() : () -> ()
  call @printF64(%d) : (f64) -> ()
  call @printNewline() : () -> ()
  return
}
