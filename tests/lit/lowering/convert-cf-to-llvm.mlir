// RUN: gpu-opt %s -p convert-cf-to-llvm --split-input-file | filecheck %s
// RUN: gpu-opt %s -p convert-cf-to-llvm --split-input-file --mlir-pass-statistics -o /dev/null 2>&1 | filecheck %s --check-prefix=STATS

// The statistics of the whole file: three `cf.br`, one `cf.cond_br`, one `cf.switch`.
// STATS:      {{^}}ConvertCfToLlvm
// STATS-NEXT:   (S) 5 num-branches-lowered - Number of cf branches lowered to llvm branches

// Branches become llvm.br / llvm.cond_br; block arguments take llvm types (index is i64).
builtin.module attributes {gpu.device} {
  func.func @loop(%n: index, %x: f32) -> f32 {
    %zero = arith.constant 0 : index
    cf.br ^head(%zero, %x : index, f32)
  ^head(%i: index, %acc: f32):
    %more = arith.cmpi slt, %i, %n : index
    cf.cond_br %more, ^body, ^exit(%acc : f32)
  ^body:
    %one = arith.constant 1 : index
    %next = arith.addi %i, %one : index
    %twice = arith.addf %acc, %acc : f32
    cf.br ^head(%next, %twice : index, f32)
  ^exit(%r: f32):
    func.return %r : f32
  }
}

// CHECK: builtin.module attributes {gpu.device} {
// CHECK-NEXT:   func.func @loop(%n: index, %x: f32) -> f32 {
// CHECK-NEXT:     %zero = arith.constant 0 : index
// CHECK-NEXT:     %0 = builtin.unrealized_conversion_cast %zero : index to i64
// CHECK-NEXT:     llvm.br ^head(%0, %x : i64, f32)
// CHECK-NEXT:   ^head(%i: i64, %acc: f32):
// CHECK-NEXT:     %i_1 = builtin.unrealized_conversion_cast %i : i64 to index
// CHECK-NEXT:     %more = arith.cmpi slt, %i_1, %n : index
// CHECK-NEXT:     llvm.cond_br %more, ^body, ^exit(%acc : f32)
// CHECK-NEXT:   ^body:
// CHECK-NEXT:     %one = arith.constant 1 : index
// CHECK-NEXT:     %next = arith.addi %i_1, %one : index
// CHECK-NEXT:     %twice = arith.addf %acc, %acc : f32
// CHECK-NEXT:     %1 = builtin.unrealized_conversion_cast %next : index to i64
// CHECK-NEXT:     llvm.br ^head(%1, %twice : i64, f32)
// CHECK-NEXT:   ^exit(%r: f32):
// CHECK-NEXT:     func.return %r : f32
// CHECK-NEXT:   }
// CHECK-NEXT: }

// -----

// cf.switch becomes a chain of compares and conditional branches, one block per case after
// the first.
builtin.module attributes {gpu.device} {
  func.func @switch(%flag: i32, %x: f32, %y: f32) -> f32 {
    cf.switch %flag : i32, [
      default: ^end(%x : f32),
      0: ^end(%y : f32),
      5: ^five
    ]
  ^five:
    cf.br ^end(%x : f32)
  ^end(%r: f32):
    func.return %r : f32
  }
}

// CHECK: builtin.module attributes {gpu.device} {
// CHECK-NEXT:   func.func @switch(%flag: i32, %x: f32, %y: f32) -> f32 {
// CHECK-NEXT:     %0 = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT:     %1 = llvm.icmp "eq" %flag, %0 : i32
// CHECK-NEXT:     llvm.cond_br %1, ^end(%y : f32), ^bb1
// CHECK-NEXT:   ^bb1:
// CHECK-NEXT:     %2 = llvm.mlir.constant(5 : i32) : i32
// CHECK-NEXT:     %3 = llvm.icmp "eq" %flag, %2 : i32
// CHECK-NEXT:     llvm.cond_br %3, ^five, ^end(%x : f32)
// CHECK-NEXT:   ^five:
// CHECK-NEXT:     llvm.br ^end(%x : f32)
// CHECK-NEXT:   ^end(%r: f32):
// CHECK-NEXT:     func.return %r : f32
// CHECK-NEXT:   }
// CHECK-NEXT: }
