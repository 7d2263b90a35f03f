// MLIR's NaN rules for each float kind of memref.atomic_rmw, in a kernel and on the host:
// maximumf / minimumf propagate a NaN (of the memory or of the value), maxnumf / minnumf return
// the other operand; addf and mulf give a NaN; assign stores it. (The NaNs are stored one by
// one: xDSL reads a hex literal in dense<…> as an integer.)
// RUN: gpu-run %s --provider interp | filecheck %s
// RUN: gpu-run %s --provider cpu | filecheck %s

// The kernel: 4 threads, thread t's value v[t] of [1, NaN, 3, -2], into (initial values in
// brackets): addf [0]: NaN;  mulf [1]: NaN;  maximumf [0]: NaN;  maxnumf [0]: 3;
// minimumf [0]: NaN;  minnumf [0]: -2;  maxnumf [NaN]: 3 (NaN loses, in memory too);
// minimumf [NaN]: NaN;  assign v[1] [0]: NaN.
// CHECK:      [nan,  nan,  nan,  3,  nan,  -2,  3,  nan,  nan]
// The host, one op each on f64: maximumf NaN [1]: NaN;  maxnumf NaN [1]: 1;
// minimumf 1 [NaN]: NaN;  minnumf 1 [NaN]: 1;  mulf NaN [2]: NaN;  addf 1 [NaN]: NaN;
// and the old value that maxnumf NaN [1] returned: 1.
// CHECK:      [nan,  1,  nan,  1,  nan,  nan,  1]

func.func private @printMemrefF32(memref<*xf32>)
func.func private @printMemrefF64(memref<*xf64>)

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c6 = arith.constant 6 : index
  %nan = arith.constant 0x7FC00000 : f32
  %v = memref.alloc() : memref<4xf32>
  %vinit = arith.constant dense<[1.0, 0.0, 3.0, -2.0]> : vector<4xf32>
  vector.store %vinit, %v[%c0] : memref<4xf32>, vector<4xf32>
  memref.store %nan, %v[%c1] : memref<4xf32>
  %out = memref.alloc() : memref<9xf32>
  %oinit = arith.constant dense<[0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]> : vector<9xf32>
  vector.store %oinit, %out[%c0] : memref<9xf32>, vector<9xf32>
  %c7 = arith.constant 7 : index
  memref.store %nan, %out[%c6] : memref<9xf32>
  memref.store %nan, %out[%c7] : memref<9xf32>
  %uv = memref.cast %v : memref<4xf32> to memref<*xf32>
  %uo = memref.cast %out : memref<9xf32> to memref<*xf32>
  gpu.host_register %uv : memref<*xf32>
  gpu.host_register %uo : memref<*xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    %k0 = arith.constant 0 : index
    %k1 = arith.constant 1 : index
    %k2 = arith.constant 2 : index
    %k3 = arith.constant 3 : index
    %k4 = arith.constant 4 : index
    %k5 = arith.constant 5 : index
    %k6 = arith.constant 6 : index
    %k7 = arith.constant 7 : index
    %k8 = arith.constant 8 : index
    %x = memref.load %v[%tx] : memref<4xf32>
    %n = memref.load %v[%k1] : memref<4xf32>
    %r0 = memref.atomic_rmw addf %x, %out[%k0] : (f32, memref<9xf32>) -> f32
    %r1 = memref.atomic_rmw mulf %x, %out[%k1] : (f32, memref<9xf32>) -> f32
    %r2 = memref.atomic_rmw maximumf %x, %out[%k2] : (f32, memref<9xf32>) -> f32
    %r3 = memref.atomic_rmw maxnumf %x, %out[%k3] : (f32, memref<9xf32>) -> f32
    %r4 = memref.atomic_rmw minimumf %x, %out[%k4] : (f32, memref<9xf32>) -> f32
    %r5 = memref.atomic_rmw minnumf %x, %out[%k5] : (f32, memref<9xf32>) -> f32
    %r6 = memref.atomic_rmw maxnumf %x, %out[%k6] : (f32, memref<9xf32>) -> f32
    %r7 = memref.atomic_rmw minimumf %x, %out[%k7] : (f32, memref<9xf32>) -> f32
    %r8 = memref.atomic_rmw assign %n, %out[%k8] : (f32, memref<9xf32>) -> f32
    gpu.terminator
  }
  call @printMemrefF32(%uo) : (memref<*xf32>) -> ()
  %h = memref.alloc() : memref<7xf64>
  %hinit = arith.constant dense<[1.0, 1.0, 0.0, 0.0, 2.0, 0.0, 0.0]> : vector<7xf64>
  vector.store %hinit, %h[%c0] : memref<7xf64>, vector<7xf64>
  %dnan = arith.constant 0x7FF8000000000000 : f64
  memref.store %dnan, %h[%c2] : memref<7xf64>
  memref.store %dnan, %h[%c3] : memref<7xf64>
  memref.store %dnan, %h[%c5] : memref<7xf64>
  %one = arith.constant 1.0 : f64
  %h0 = memref.atomic_rmw maximumf %dnan, %h[%c0] : (f64, memref<7xf64>) -> f64
  %h1 = memref.atomic_rmw maxnumf %dnan, %h[%c1] : (f64, memref<7xf64>) -> f64
  %h2 = memref.atomic_rmw minimumf %one, %h[%c2] : (f64, memref<7xf64>) -> f64
  %h3 = memref.atomic_rmw minnumf %one, %h[%c3] : (f64, memref<7xf64>) -> f64
  %h4 = memref.atomic_rmw mulf %dnan, %h[%c4] : (f64, memref<7xf64>) -> f64
  %h5 = memref.atomic_rmw addf %one, %h[%c5] : (f64, memref<7xf64>) -> f64
  memref.store %h1, %h[%c6] : memref<7xf64>
  %uh = memref.cast %h : memref<7xf64> to memref<*xf64>
  call @printMemrefF64(%uh) : (memref<*xf64>) -> ()
  return
}
