// RUN: gpu-opt %s -p convert-scf-while-to-cf | filecheck %s
// RUN: gpu-opt %s -p convert-scf-while-to-cf --mlir-pass-statistics -o /dev/null 2>&1 | filecheck %s --check-prefix=STATS

// The statistics of the whole file: the one scf.while below.
// STATS:      {{^}}ConvertScfWhileToCf
// STATS-NEXT:   (S) 1 num-loops-lowered - Number of scf.while loops lowered to blocks

// scf.while becomes a loop of blocks: the `before` region tests and branches to the `after`
// region or out; the `after` region branches back.
builtin.module attributes {gpu.device} {
  func.func @collatz(%n: i32) -> (i32, i32) {
    %zero = arith.constant 0 : i32
    %one = arith.constant 1 : i32
    %true = arith.constant true
    %steps, %last = scf.while (%s = %zero, %x = %n) : (i32, i32) -> (i32, i32) {
      %done = arith.cmpi eq, %x, %one : i32
      %go = arith.xori %done, %true : i1
      scf.condition(%go) %s, %x : i32, i32
    } do {
    ^bb0(%s2: i32, %x2: i32):
      %two = arith.constant 2 : i32
      %half = arith.divui %x2, %two : i32
      %s3 = arith.addi %s2, %one : i32
      scf.yield %s3, %half : i32, i32
    }
    func.return %steps, %last : i32, i32
  }
}

// CHECK: builtin.module attributes {gpu.device} {
// CHECK-NEXT:   func.func @collatz(%n: i32) -> (i32, i32) {
// CHECK-NEXT:     %zero = arith.constant 0 : i32
// CHECK-NEXT:     %one = arith.constant 1 : i32
// CHECK-NEXT:     %true = arith.constant true
// CHECK-NEXT:     cf.br ^bb1(%zero, %n : i32, i32)
// CHECK-NEXT:   ^bb1(%s: i32, %x: i32):
// CHECK-NEXT:     %done = arith.cmpi eq, %x, %one : i32
// CHECK-NEXT:     %go = arith.xori %done, %true : i1
// CHECK-NEXT:     cf.cond_br %go, ^bb2(%s, %x : i32, i32), ^bb3(%s, %x : i32, i32)
// CHECK-NEXT:   ^bb2(%s2: i32, %x2: i32):
// CHECK-NEXT:     %two = arith.constant 2 : i32
// CHECK-NEXT:     %half = arith.divui %x2, %two : i32
// CHECK-NEXT:     %s3 = arith.addi %s2, %one : i32
// CHECK-NEXT:     cf.br ^bb1(%s3, %half : i32, i32)
// CHECK-NEXT:   ^bb3(%steps: i32, %last: i32):
// CHECK-NEXT:     func.return %steps, %last : i32, i32
// CHECK-NEXT:   }
// CHECK-NEXT: }
