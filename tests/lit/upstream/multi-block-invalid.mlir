// What the importer refuses of functions of several blocks: each error at the call.
// RUN: not gpu-opt --upstream %s --split-input-file 2>&1 | filecheck %s

// Its blocks cannot go inside an scf region.
// CHECK: multi-block-invalid.mlir:18:5: error: importing upstream MLIR: 'func.call' of @abs, which has several blocks, inside an scf region is not supported
func.func @abs(%x: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %neg = arith.cmpi slt, %x, %c0 : i32
  cf.cond_br %neg, ^bb1, ^bb2(%x : i32)
^bb1:
  %n = arith.subi %c0, %x : i32
  cf.br ^bb2(%n : i32)
^bb2(%r: i32):
  return %r : i32
}
func.func @main(%c: i1, %x: i32) -> i32 {
  %y = scf.if %c -> (i32) {
    %a = func.call @abs(%x) : (i32) -> i32
    scf.yield %a : i32
  } else {
    scf.yield %x : i32
  }
  return %y : i32
}

// -----

// A memref is not a block argument, so it cannot be returned to the block after the call.
// CHECK: multi-block-invalid.mlir:40:3: error: importing upstream MLIR: 'func.call' of @either, which has several blocks, returning a memref
func.func @either(%c: i1, %a: memref<4xf32>, %b: memref<4xf32>) -> memref<4xf32> {
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  return %a : memref<4xf32>
^bb2:
  return %b : memref<4xf32>
}
func.func @main(%c: i1) {
  %a = memref.alloc() : memref<4xf32>
  %b = memref.alloc() : memref<4xf32>
  %m = func.call @either(%c, %a, %b) : (i1, memref<4xf32>, memref<4xf32>) -> memref<4xf32>
  return
}
