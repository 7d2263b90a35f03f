// Work-group collectives, bit-exact. The f32 values 1e8, 1, -1e8, 1: the reduction's fixed
// tree is (1e8 + 1) + (-1e8 + 1) = 1e8 + -1e8 = 0 (each + 1 is lost to rounding: the spacing
// of f32 near 1e8 is 8); the scan is the left fold 1e8, 1e8, 0, 1 (numpy prints 1e8 as 1e+08). The i32 values 1 - 2 * item
// = 1, -1, -3, -5: max compares signed (1), the add scan gives 1, 0, -3, -8. printf prints
// [reduce, scan...] for each.
// RUN: gpu-run %s --provider interp | filecheck %s

// CHECK:      f32: 0.0 1e+08 1e+08 0.0 1.0
// CHECK-NEXT: i32: 1 1 0 -3 -8
// CHECK-EMPTY:

func.func @kernel(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
                  %group: index, %item: index, %fin: !mem.ptr<!mem.array<4 x f32>, 1>,
                  %fout: !mem.ptr<!mem.array<5 x f32>, 1>, %iout: !mem.ptr<!mem.array<5 x i32>, 1>)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
  %in = mem.lea %fin, %item : !mem.ptr<!mem.array<4 x f32>, 1>
  %a1, %f = mem.load %m1, %in : !mem.ptr<f32, 1>
  %b1, %b3, %fsum = gpu.workgroup_reduce "add" %a1, %m3, %f : f32
  %c1, %c3, %fscan = gpu.workgroup_scan "add" %b1, %b3, %f : f32
  %one = arith.constant 1 : i32
  %two = arith.constant 2 : i32
  %id = arith.index_cast %item : index to i32
  %twice = arith.muli %id, %two : i32
  %v = arith.subi %one, %twice : i32
  %d1, %d3, %imax = gpu.workgroup_reduce "max" %c1, %c3, %v : i32
  %e1, %e3, %iscan = gpu.workgroup_scan "add" %d1, %d3, %v : i32
  %next = arith.constant 1 : index
  %at = arith.addi %item, %next : index
  %fs = mem.lea %fout, %at : !mem.ptr<!mem.array<5 x f32>, 1>
  %f1 = mem.store %e1, %fs, %fscan : !mem.ptr<f32, 1>
  %is = mem.lea %iout, %at : !mem.ptr<!mem.array<5 x i32>, 1>
  %g1 = mem.store %f1, %is, %iscan : !mem.ptr<i32, 1>
  %zero = arith.constant 0 : index
  %first = arith.cmpi eq, %item, %zero : index
  %r1 = scf.if %first -> (!mem.M<1>) {
    %fr = mem.lea %fout, %zero : !mem.ptr<!mem.array<5 x f32>, 1>
    %h1 = mem.store %g1, %fr, %fsum : !mem.ptr<f32, 1>
    %ir = mem.lea %iout, %zero : !mem.ptr<!mem.array<5 x i32>, 1>
    %i1 = mem.store %h1, %ir, %imax : !mem.ptr<i32, 1>
    scf.yield %i1 : !mem.M<1>
  } else {
    scf.yield %g1 : !mem.M<1>
  }
  func.return %r1, %e3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}

func.func @main(%m: !mem.M<0>) -> !mem.M<0> {
  %m0, %m1, %m4 = gpu.init %m
  %a0, %fin = mem.alloc %m0 : !mem.ptr<!mem.array<4 x f32>, 0>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %big = arith.constant 1.0e8 : f32
  %small = arith.constant 1.0 : f32
  %nbig = arith.constant -1.0e8 : f32
  %p0 = mem.lea %fin, %c0 : !mem.ptr<!mem.array<4 x f32>, 0>
  %p1 = mem.lea %fin, %c1 : !mem.ptr<!mem.array<4 x f32>, 0>
  %p2 = mem.lea %fin, %c2 : !mem.ptr<!mem.array<4 x f32>, 0>
  %p3 = mem.lea %fin, %c3 : !mem.ptr<!mem.array<4 x f32>, 0>
  %b0 = mem.store %a0, %p0, %big : !mem.ptr<f32, 0>
  %d0 = mem.store %b0, %p1, %small : !mem.ptr<f32, 0>
  %e0 = mem.store %d0, %p2, %nbig : !mem.ptr<f32, 0>
  %f0 = mem.store %e0, %p3, %small : !mem.ptr<f32, 0>
  %g0, %g1, %dfin = gpu.alloc_copy.block %f0, %m1, %fin
      : !mem.ptr<!mem.array<4 x f32>, 0> -> !mem.ptr<!mem.array<4 x f32>, 1>
  %h1, %dfout = gpu.alloc.block %g1 : !mem.ptr<!mem.array<5 x f32>, 1>
  %i1, %diout = gpu.alloc.block %h1 : !mem.ptr<!mem.array<5 x i32>, 1>
  %stream = gpu.default_stream
  %l0, %l1, %l4 = gpu.launch @kernel grid(%c1, %c4) stream(%stream) mems(%g0, %i1, %m4)
      args(%dfin, %dfout, %diout)
      : (!mem.ptr<!mem.array<4 x f32>, 1>, !mem.ptr<!mem.array<5 x f32>, 1>, !mem.ptr<!mem.array<5 x i32>, 1>)
  %j0, %fout = mem.alloc %l0 : !mem.ptr<!mem.array<5 x f32>, 0>
  %k0, %iout = mem.alloc %j0 : !mem.ptr<!mem.array<5 x i32>, 0>
  %n0, %n1 = gpu.copy_to_host.block %k0, %l1, %dfout -> %fout
      : !mem.ptr<!mem.array<5 x f32>, 1> -> !mem.ptr<!mem.array<5 x f32>, 0>
  %o0, %o1 = gpu.copy_to_host.block %n0, %n1, %diout -> %iout
      : !mem.ptr<!mem.array<5 x i32>, 1> -> !mem.ptr<!mem.array<5 x i32>, 0>
  printf.print_format "f32:"
  %q0 = scf.for %k = %c0 to %c5 step %c1 iter_args(%t = %o0) -> (!mem.M<0>) {
    %e = mem.lea %fout, %k : !mem.ptr<!mem.array<5 x f32>, 0>
    %t2, %x = mem.load %t, %e : !mem.ptr<f32, 0>
    printf.print_format " {}", %x : f32
    scf.yield %t2 : !mem.M<0>
  }
  printf.print_format "\ni32:"
  %r0 = scf.for %k = %c0 to %c5 step %c1 iter_args(%t = %q0) -> (!mem.M<0>) {
    %e = mem.lea %iout, %k : !mem.ptr<!mem.array<5 x i32>, 0>
    %t2, %x = mem.load %t, %e : !mem.ptr<i32, 0>
    printf.print_format " {}", %x : i32
    scf.yield %t2 : !mem.M<0>
  }
  printf.print_format "\n"
  %done = gpu.deinit %r0, %o1, %l4
  func.return %done : !mem.M<0>
}
