// RUN: not gpu-run %s --provider interp 2>&1 | filecheck %s
// RUN: gpu-opt %s -p gpu-pipeline --print-debuginfo | filecheck %s --check-prefix=LOC
//
// Found by the fuzzer (tests/fuzz): a run-time error in an op that a pass made (here the
// `mem.load` that `buffer.read` becomes) had no location: `gpu-run` said only
// `run-located-after-lowering.mlir: error: out of bounds ...`, and "allocated here" pointed
// nowhere. xDSL's rewriter leaves the ops a pattern inserts without a location; the passes now
// give them the location of the op they replace (gpuir/passes/locations.py).

func.func @main(%m0: !mem.M<0>) -> (!mem.M<0>, f32) {
  %v = arith.constant 1.5 : f32
  %b0, %b = buffer.lit %m0, %v : f32 -> !buffer.buf<2x2xf32>
  %i = arith.constant -1 : index
  %d0, %x = buffer.read %b0, %b[%i, %i] : !buffer.buf<2x2xf32>
  func.return %d0, %x : !mem.M<0>, f32
}

// CHECK-NOT: Traceback
// CHECK:     run-located-after-lowering.mlir:14:3: error: out of bounds: host code loads 4 bytes from byte offset -12 of a 16-byte host allocation (by 'mem.alloc' at {{.*}}run-located-after-lowering.mlir:12:3)
// CHECK:     run-located-after-lowering.mlir:12:3: note: allocated here
// CHECK-NOT: {{Traceback|internal error}}

// LOC: mem.alloc {{.*}} loc({{.*}}:12:3)
// LOC: mem.load {{.*}} loc({{.*}}:14:3)
