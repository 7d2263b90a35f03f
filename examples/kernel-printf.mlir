// printf in a kernel. Each work-item of 2 groups of 3 prints a line before and after a barrier
// across its group: its ids, a float, a value it read from its neighbour in shared memory, and
// (the last item) an i1, -0.0, inf and nan. The host prints around the launch. Every provider
// prints each call whole and formats values as the host does (`{}`: integers in decimal, floats
// as the shortest text that reads back); all of a launch's output comes before what the host
// prints after it. interp and cpu print the lines in the same order: group by group, and in a
// group item by item, up to the barrier, then item by item again after it.
//
//   gpu-run examples/kernel-printf.mlir --provider cpu

func.func @k(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
             %group: index, %item: index, %smem: !mem.ptr<!mem.array<? x f32>, 3>,
             %n: index, %x: f32)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
  %one = arith.constant 1 : index
  %ii = arith.index_cast %item : index to i64
  %fi = arith.sitofp %ii : i64 to f32
  %v = arith.mulf %fi, %x : f32
  printf.print_format "group {} item {}: before, v = {}\n", %group : index, %item : index, %v : f32
  %mine = mem.lea %smem, %item : !mem.ptr<!mem.array<? x f32>, 3>
  %s3 = mem.store %m3, %mine, %v : !mem.ptr<f32, 3>
  %b1, %b3 = gpu.sync_work_items %m1, %s3
  %next = arith.addi %item, %one : index
  %wrap = arith.remui %next, %n : index
  %theirs = mem.lea %smem, %wrap : !mem.ptr<!mem.array<? x f32>, 3>
  %l3, %w = mem.load %b3, %theirs : !mem.ptr<f32, 3>
  printf.print_format "group {} item {}: after, neighbour = {}\n", %group : index, %item : index, %w : f32
  %last = arith.subi %n, %one : index
  %is_last = arith.cmpi eq, %item, %last : index
  scf.if %is_last {
    %zero = arith.constant -0.0 : f64
    %inf = arith.constant 0x7FF0000000000000 : f64
    %nan = arith.constant 0x7FF8000000000000 : f64
    %byte = arith.constant -56 : i8
    printf.print_format "  {} {} {} {} {} {{braces}}\n", %is_last : i1, %zero : f64, %inf : f64, %nan : f64, %byte : i8
  }
  func.return %b1, %l3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}

func.func @main(%m: !mem.M<0>) -> !mem.M<0> {
  %m0, %m1, %m4 = gpu.init %m
  %s = gpu.default_stream
  %groups = arith.constant 2 : index
  %items = arith.constant 3 : index
  %x = arith.constant 0.1 : f32
  printf.print_format "host: before the launch\n"
  %l0, %l1, %l4 = gpu.launch @k grid(%groups, %items) stream(%s) smem(!mem.array<? x f32>, %items)
      mems(%m0, %m1, %m4) args(%items, %x) : (index, f32)
  printf.print_format "host: after the launch\n"
  %e = gpu.deinit %l0, %l1, %l4
  func.return %e : !mem.M<0>
}
