// memref.atomic_rmw of every kind MLIR 22 has, in a kernel of 4 blocks of 32 threads (global
// id g = 0..127), on i32, i64, f32 and f64; then mulf, muli, maximumf and minimumf on the host.
// The kinds mem.atomic_rmw lacks (muli, mulf, maximumf, minimumf) are compare-and-swap loops.
// RUN: gpu-run %s --provider interp | filecheck %s
// RUN: gpu-run %s --provider cpu | filecheck %s
// RUN: gpu-run %s --provider cpu --check | filecheck %s

// The i32s, each from its initial value (in brackets), over g = 0..127:
//  addi 1 [0]: 128;  maxs g [0]: 127;  mins g - 5 [1000]: -5;
//  maxu g - 10 [0]: g = 9 gives 2^32 - 1, printed signed as -1;  minu g + 3 [-1 = 2^32 - 1]: 3;
//  assign 7 [0]: 7;  ori 1 << (g mod 31) [0]: bits 0..30, 2^31 - 1 = 2147483647;
//  andi ~(1 << (g mod 8)) [-1]: bits 0..7 cleared, -256;
//  xori 1 << (g mod 5) [0]: residues 0, 1, 2 come 26 times (even: cleared), 3 and 4 come 25
//  times (odd: set), 8 + 16 = 24;
//  muli (g < 20 ? 3 : 1) [1]: 3^20 = 3486784401 wraps to 3486784401 - 2^32 = -808182895;
//  and the last element, the host's muli 2 [1]: 2.
// CHECK:      [128,  127,  -5,  -1,  3,  7,  2147483647,  -256,  24,  -808182895,  2]
// The i64: addi g * 2^32 [0]: 2^32 * (0 + … + 127) = 2^32 * 8128 = 34909494181888.
// CHECK:      [34909494181888]
// The f32s: addf 0.5 [0]: 64;  mulf (g < 10 ? 2 : 1) [1]: 2^10 = 1024;  maxnumf g [-1]: 127;
//  minnumf g - 3 [1000]: -3;  maximumf g [-1]: 127;  minimumf g [1000]: 0;  assign 2.5 [0]: 2.5;
//  then on the host: mulf 0.5 of 1024 gives 512, and two more elements: maximumf 5 [3]: 5,
//  minimumf -4 [3]: -4.
// CHECK:      [64,  512,  127,  -3,  127,  0,  2.5,  5,  -4]
// The f64s: mulf (g < 4 ? 1.5 : 1) [1]: 1.5^4 = 5.0625;  maximumf g [-1]: 127.
// CHECK:      [5.0625,  127]

func.func private @printMemrefI32(memref<*xi32>)
func.func private @printMemrefI64(memref<*xi64>)
func.func private @printMemrefF32(memref<*xf32>)
func.func private @printMemrefF64(memref<*xf64>)

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c32 = arith.constant 32 : index
  %ints = memref.alloc() : memref<11xi32>
  %longs = memref.alloc() : memref<1xi64>
  %floats = memref.alloc() : memref<9xf32>
  %doubles = memref.alloc() : memref<2xf64>
  // The initial values.
  %iinit = arith.constant dense<[0, 0, 1000, 0, -1, 0, 0, -1, 0, 1, 1]> : vector<11xi32>
  vector.store %iinit, %ints[%c0] : memref<11xi32>, vector<11xi32>
  %l0 = arith.constant 0 : i64
  memref.store %l0, %longs[%c0] : memref<1xi64>
  %finit = arith.constant dense<[0.0, 1.0, -1.0, 1000.0, -1.0, 1000.0, 0.0, 3.0, 3.0]> : vector<9xf32>
  vector.store %finit, %floats[%c0] : memref<9xf32>, vector<9xf32>
  %dinit = arith.constant dense<[1.0, -1.0]> : vector<2xf64>
  vector.store %dinit, %doubles[%c0] : memref<2xf64>, vector<2xf64>
  %ui = memref.cast %ints : memref<11xi32> to memref<*xi32>
  %ul = memref.cast %longs : memref<1xi64> to memref<*xi64>
  %uf = memref.cast %floats : memref<9xf32> to memref<*xf32>
  %ud = memref.cast %doubles : memref<2xf64> to memref<*xf64>
  gpu.host_register %ui : memref<*xi32>
  gpu.host_register %ul : memref<*xi64>
  gpu.host_register %uf : memref<*xf32>
  gpu.host_register %ud : memref<*xf64>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c4, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %base = arith.muli %bx, %sx : index
    %gi = arith.addi %base, %tx : index
    %g = arith.index_cast %gi : index to i32
    %one = arith.constant 1 : i32
    %three = arith.constant 3 : i32
    %five = arith.constant 5 : i32
    %seven = arith.constant 7 : i32
    %eight = arith.constant 8 : i32
    %ten = arith.constant 10 : i32
    %twenty = arith.constant 20 : i32
    %n31 = arith.constant 31 : i32
    %allones = arith.constant -1 : i32
    %k0 = arith.constant 0 : index
    %k1 = arith.constant 1 : index
    %k2 = arith.constant 2 : index
    %k3 = arith.constant 3 : index
    %k4 = arith.constant 4 : index
    %k5 = arith.constant 5 : index
    %k6 = arith.constant 6 : index
    %k7 = arith.constant 7 : index
    %k8 = arith.constant 8 : index
    %k9 = arith.constant 9 : index
    %gm5 = arith.subi %g, %five : i32
    %gm10 = arith.subi %g, %ten : i32
    %gp3 = arith.addi %g, %three : i32
    %r31 = arith.remui %g, %n31 : i32
    %bit31 = arith.shli %one, %r31 : i32
    %r8 = arith.remui %g, %eight : i32
    %bit8 = arith.shli %one, %r8 : i32
    %notbit8 = arith.xori %bit8, %allones : i32
    %r5 = arith.remui %g, %five : i32
    %bit5 = arith.shli %one, %r5 : i32
    %small = arith.cmpi slt, %g, %twenty : i32
    %factor = arith.select %small, %three, %one : i32
    %a0 = memref.atomic_rmw addi %one, %ints[%k0] : (i32, memref<11xi32>) -> i32
    %a1 = memref.atomic_rmw maxs %g, %ints[%k1] : (i32, memref<11xi32>) -> i32
    %a2 = memref.atomic_rmw mins %gm5, %ints[%k2] : (i32, memref<11xi32>) -> i32
    %a3 = memref.atomic_rmw maxu %gm10, %ints[%k3] : (i32, memref<11xi32>) -> i32
    %a4 = memref.atomic_rmw minu %gp3, %ints[%k4] : (i32, memref<11xi32>) -> i32
    %a5 = memref.atomic_rmw assign %seven, %ints[%k5] : (i32, memref<11xi32>) -> i32
    %a6 = memref.atomic_rmw ori %bit31, %ints[%k6] : (i32, memref<11xi32>) -> i32
    %a7 = memref.atomic_rmw andi %notbit8, %ints[%k7] : (i32, memref<11xi32>) -> i32
    %a8 = memref.atomic_rmw xori %bit5, %ints[%k8] : (i32, memref<11xi32>) -> i32
    %a9 = memref.atomic_rmw muli %factor, %ints[%k9] : (i32, memref<11xi32>) -> i32
    %g64 = arith.extui %g : i32 to i64
    %c32_64 = arith.constant 32 : i64
    %shifted = arith.shli %g64, %c32_64 : i64
    %l = memref.atomic_rmw addi %shifted, %longs[%k0] : (i64, memref<1xi64>) -> i64
    %gf = arith.sitofp %g : i32 to f32
    %half = arith.constant 0.5 : f32
    %fone = arith.constant 1.0 : f32
    %ftwo = arith.constant 2.0 : f32
    %fthree = arith.constant 3.0 : f32
    %f25 = arith.constant 2.5 : f32
    %ten_s = arith.cmpi slt, %g, %ten : i32
    %ffactor = arith.select %ten_s, %ftwo, %fone : f32
    %gfm3 = arith.subf %gf, %fthree : f32
    %f0 = memref.atomic_rmw addf %half, %floats[%k0] : (f32, memref<9xf32>) -> f32
    %f1 = memref.atomic_rmw mulf %ffactor, %floats[%k1] : (f32, memref<9xf32>) -> f32
    %f2 = memref.atomic_rmw maxnumf %gf, %floats[%k2] : (f32, memref<9xf32>) -> f32
    %f3 = memref.atomic_rmw minnumf %gfm3, %floats[%k3] : (f32, memref<9xf32>) -> f32
    %f4 = memref.atomic_rmw maximumf %gf, %floats[%k4] : (f32, memref<9xf32>) -> f32
    %f5 = memref.atomic_rmw minimumf %gf, %floats[%k5] : (f32, memref<9xf32>) -> f32
    %f6 = memref.atomic_rmw assign %f25, %floats[%k6] : (f32, memref<9xf32>) -> f32
    %gd = arith.extf %gf : f32 to f64
    %dgf = arith.constant 1.5 : f64
    %done = arith.constant 1.0 : f64
    %four = arith.constant 4 : i32
    %lt4 = arith.cmpi slt, %g, %four : i32
    %dfactor = arith.select %lt4, %dgf, %done : f64
    %d0 = memref.atomic_rmw mulf %dfactor, %doubles[%k0] : (f64, memref<2xf64>) -> f64
    %d1 = memref.atomic_rmw maximumf %gd, %doubles[%k1] : (f64, memref<2xf64>) -> f64
    gpu.terminator
  }
  // On the host.
  %c7 = arith.constant 7 : index
  %c8 = arith.constant 8 : index
  %c10 = arith.constant 10 : index
  %two = arith.constant 2 : i32
  %h0 = memref.atomic_rmw muli %two, %ints[%c10] : (i32, memref<11xi32>) -> i32
  %hhalf = arith.constant 0.5 : f32
  %hfive = arith.constant 5.0 : f32
  %hm4 = arith.constant -4.0 : f32
  %h1 = memref.atomic_rmw mulf %hhalf, %floats[%c1] : (f32, memref<9xf32>) -> f32
  %h2 = memref.atomic_rmw maximumf %hfive, %floats[%c7] : (f32, memref<9xf32>) -> f32
  %h3 = memref.atomic_rmw minimumf %hm4, %floats[%c8] : (f32, memref<9xf32>) -> f32
  call @printMemrefI32(%ui) : (memref<*xi32>) -> ()
  call @printMemrefI64(%ul) : (memref<*xi64>) -> ()
  call @printMemrefF32(%uf) : (memref<*xf32>) -> ()
  call @printMemrefF64(%ud) : (memref<*xf64>) -> ()
  return
}
