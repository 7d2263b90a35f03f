// Work-group collectives over a group of 100 work-items (not a power of two), 2 groups. Item i
// of group g has k = 100 g + i, the f32 value v = 1 / (k + 1) + 1000 and the i32 value
// w = (37 k) mod 101 - 50. Each group computes the f32 sum of v (gpu.workgroup_reduce "add":
// IR.md's fixed tree), the inclusive f32 scan of v (gpu.workgroup_scan "add": the left fold in
// item order), the i32 max of w and the inclusive i32 scan of w, one after another (each reuses
// the shared scratch of the one before). The f32 sums depend on the order of the additions: the
// tree gives 100005.19 for group 0, the left fold 100005.18 (the scan's last element), so every
// provider must combine in exactly these orders to print the same bits.
//
// main prints, for each group, four lines: the f32 sum, the f32 scan, the i32 max, the i32 scan.
//
//   gpu-run examples/workgroup-collectives.mlir --provider cpu
//   gpu-opt examples/workgroup-collectives.mlir -t 'ptx{sm=90}'

func.func @collectives(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
                       %group: index, %item: index,
                       %fsum: !mem.ptr<!mem.array<2 x f32>, 1>,
                       %fscan: !mem.ptr<!mem.array<200 x f32>, 1>,
                       %imax: !mem.ptr<!mem.array<2 x i32>, 1>,
                       %iscan: !mem.ptr<!mem.array<200 x i32>, 1>)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
  %hundred = arith.constant 100 : index
  %base = arith.muli %group, %hundred : index
  %k = arith.addi %base, %item : index
  %k32 = arith.index_cast %k : index to i32
  %one = arith.constant 1 : i32
  %k1 = arith.addi %k32, %one : i32
  %kf = arith.sitofp %k1 : i32 to f32
  %onef = arith.constant 1.0 : f32
  %thousand = arith.constant 1000.0 : f32
  %inverse = arith.divf %onef, %kf : f32
  %v = arith.addf %inverse, %thousand : f32
  %c37 = arith.constant 37 : i32
  %c101 = arith.constant 101 : i32
  %c50 = arith.constant 50 : i32
  %scaled = arith.muli %k32, %c37 : i32
  %rest = arith.remsi %scaled, %c101 : i32
  %w = arith.subi %rest, %c50 : i32

  %a1, %a3, %sum = gpu.workgroup_reduce "add" %m1, %m3, %v : f32
  %b1, %b3, %prefix = gpu.workgroup_scan "add" %a1, %a3, %v : f32
  %c1, %c3, %max = gpu.workgroup_reduce "max" %b1, %b3, %w : i32
  %d1, %d3, %iprefix = gpu.workgroup_scan "add" %c1, %c3, %w : i32

  %fs = mem.lea %fscan, %k : !mem.ptr<!mem.array<200 x f32>, 1>
  %e1 = mem.store %d1, %fs, %prefix : !mem.ptr<f32, 1>
  %is = mem.lea %iscan, %k : !mem.ptr<!mem.array<200 x i32>, 1>
  %f1 = mem.store %e1, %is, %iprefix : !mem.ptr<i32, 1>
  %zero = arith.constant 0 : index
  %first = arith.cmpi eq, %item, %zero : index
  %g1 = scf.if %first -> (!mem.M<1>) {
    %fr = mem.lea %fsum, %group : !mem.ptr<!mem.array<2 x f32>, 1>
    %h1 = mem.store %f1, %fr, %sum : !mem.ptr<f32, 1>
    %ir = mem.lea %imax, %group : !mem.ptr<!mem.array<2 x i32>, 1>
    %i1 = mem.store %h1, %ir, %max : !mem.ptr<i32, 1>
    scf.yield %i1 : !mem.M<1>
  } else {
    scf.yield %f1 : !mem.M<1>
  }
  func.return %g1, %d3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}

func.func @main(%m: !mem.M<0>) -> !mem.M<0> {
  %m0, %m1, %m4 = gpu.init %m
  %a1, %dfsum = gpu.alloc.block %m1 : !mem.ptr<!mem.array<2 x f32>, 1>
  %b1, %dfscan = gpu.alloc.block %a1 : !mem.ptr<!mem.array<200 x f32>, 1>
  %c1, %dimax = gpu.alloc.block %b1 : !mem.ptr<!mem.array<2 x i32>, 1>
  %d1, %discan = gpu.alloc.block %c1 : !mem.ptr<!mem.array<200 x i32>, 1>
  %stream = gpu.default_stream
  %groups = arith.constant 2 : index
  %items = arith.constant 100 : index
  %l0, %l1, %l4 = gpu.launch @collectives grid(%groups, %items) stream(%stream)
      mems(%m0, %d1, %m4) args(%dfsum, %dfscan, %dimax, %discan)
      : (!mem.ptr<!mem.array<2 x f32>, 1>, !mem.ptr<!mem.array<200 x f32>, 1>,
         !mem.ptr<!mem.array<2 x i32>, 1>, !mem.ptr<!mem.array<200 x i32>, 1>)
  %e0, %fsum = mem.alloc %l0 : !mem.ptr<!mem.array<2 x f32>, 0>
  %f0, %fscan = mem.alloc %e0 : !mem.ptr<!mem.array<200 x f32>, 0>
  %g0, %imax = mem.alloc %f0 : !mem.ptr<!mem.array<2 x i32>, 0>
  %h0, %iscan = mem.alloc %g0 : !mem.ptr<!mem.array<200 x i32>, 0>
  %i0, %i1 = gpu.copy_to_host.block %h0, %l1, %dfsum -> %fsum
      : !mem.ptr<!mem.array<2 x f32>, 1> -> !mem.ptr<!mem.array<2 x f32>, 0>
  %j0, %j1 = gpu.copy_to_host.block %i0, %i1, %dfscan -> %fscan
      : !mem.ptr<!mem.array<200 x f32>, 1> -> !mem.ptr<!mem.array<200 x f32>, 0>
  %k0, %k1 = gpu.copy_to_host.block %j0, %j1, %dimax -> %imax
      : !mem.ptr<!mem.array<2 x i32>, 1> -> !mem.ptr<!mem.array<2 x i32>, 0>
  %n0, %n1 = gpu.copy_to_host.block %k0, %k1, %discan -> %iscan
      : !mem.ptr<!mem.array<200 x i32>, 1> -> !mem.ptr<!mem.array<200 x i32>, 0>
  %zero = arith.constant 0 : index
  %one = arith.constant 1 : index
  %p0 = scf.for %g = %zero to %groups step %one iter_args(%t = %n0) -> (!mem.M<0>) {
    %base = arith.muli %g, %items : index
    %fr = mem.lea %fsum, %g : !mem.ptr<!mem.array<2 x f32>, 0>
    %t1, %s = mem.load %t, %fr : !mem.ptr<f32, 0>
    printf.print_format "group {} f32 sum: {}\n", %g : index, %s : f32
    printf.print_format "group {} f32 scan:", %g : index
    %t2 = scf.for %i = %zero to %items step %one iter_args(%u = %t1) -> (!mem.M<0>) {
      %at = arith.addi %base, %i : index
      %e = mem.lea %fscan, %at : !mem.ptr<!mem.array<200 x f32>, 0>
      %u2, %x = mem.load %u, %e : !mem.ptr<f32, 0>
      printf.print_format " {}", %x : f32
      scf.yield %u2 : !mem.M<0>
    }
    %ir = mem.lea %imax, %g : !mem.ptr<!mem.array<2 x i32>, 0>
    %t3, %mx = mem.load %t2, %ir : !mem.ptr<i32, 0>
    printf.print_format "\ngroup {} i32 max: {}\n", %g : index, %mx : i32
    printf.print_format "group {} i32 scan:", %g : index
    %t4 = scf.for %i = %zero to %items step %one iter_args(%u = %t3) -> (!mem.M<0>) {
      %at = arith.addi %base, %i : index
      %e = mem.lea %iscan, %at : !mem.ptr<!mem.array<200 x i32>, 0>
      %u2, %x = mem.load %u, %e : !mem.ptr<i32, 0>
      printf.print_format " {}", %x : i32
      scf.yield %u2 : !mem.M<0>
    }
    printf.print_format "\n"
    scf.yield %t4 : !mem.M<0>
  }
  %q1 = gpu.free.block %n1, %dfsum : !mem.ptr<!mem.array<2 x f32>, 1>
  %r1 = gpu.free.block %q1, %dfscan : !mem.ptr<!mem.array<200 x f32>, 1>
  %s1 = gpu.free.block %r1, %dimax : !mem.ptr<!mem.array<2 x i32>, 1>
  %t1 = gpu.free.block %s1, %discan : !mem.ptr<!mem.array<200 x i32>, 1>
  %done = gpu.deinit %p0, %t1, %l4
  func.return %done : !mem.M<0>
}
