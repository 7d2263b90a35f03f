// RUN: gpu-opt %s -p cpu-workgroup-loops --split-input-file | filecheck %s
// RUN: gpu-opt %s -p cpu-workgroup-loops --split-input-file --mlir-pass-statistics -o /dev/null 2>&1 | filecheck %s --check-prefix=STATS

// Warp operations that the whole group reaches (here at the kernel's top level, with a barrier,
// which keeps the warp-vector form away) take Fission's form (lowering/cpu/forms.py): item loops between them, each warp operation a loop over the
// group. A shuffle of a run-time offset reads its source lane's value from the items' array
// (the rule of lowering/llvm/rules.py), its valid flag kept as a byte; a ballot ors its lanes'
// flags per warp (32 items), then gives each lane the mask.
// CHECK-LABEL: func.func @k(
// CHECK-SAME:    gpu.workgroup
// CHECK:         scf.for %item = %{{.*}} to %n_items
// CHECK:           %v = arith.index_cast %item : index to i32
// CHECK:           mem.store %m5, %{{.*}}, %v : !mem.ptr<i32, 5>
// CHECK:         scf.for %[[I:.*]] = %{{.*}} to %n_items
// CHECK:           arith.remui %[[I]]
// CHECK:           arith.xori
// CHECK:           mem.load %m5
// CHECK:           arith.extui %{{.*}} : i1 to i8
// CHECK:         scf.for %item_1 = %{{.*}} to %n_items
// CHECK:           %pos = arith.cmpi sgt
// CHECK:         %[[WARPS:.*]] = arith.divui
// CHECK:         scf.for %[[W:.*]] = %{{.*}} to %[[WARPS]]
// CHECK:           scf.for {{.*}} iter_args({{.*}}) -> (i32)
// CHECK:             arith.shli
// CHECK:             arith.ori
// CHECK:           scf.for
// CHECK:             mem.store %m5, %{{.*}} : !mem.ptr<i32, 5>
// CHECK:         scf.for %item_2 = %{{.*}} to %n_items
// CHECK:           arith.trunci %{{.*}} : i8 to i1
// CHECK:           %x = arith.select
// CHECK-NOT:     func.call
// CHECK-NOT:     func.func @k.resume
builtin.module attributes {gpu.device} {
  func.func @k(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
               %group: index, %item: index, %o: i32, %out: !mem.ptr<!mem.array<? x i32>, 1>)
      -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) attributes {gpu.kernel} {
    %w = arith.constant 32 : i32
    %v = arith.index_cast %item : index to i32
    %a1, %a3, %s, %ok = gpu.shuffle "xor" %m1, %m3, %v, %o, %w : i32
    %c0 = arith.constant 0 : i32
    %pos = arith.cmpi sgt, %s, %c0 : i32
    %b1, %b3, %mask = gpu.ballot %a1, %a3, %pos
    %x = arith.select %ok, %mask, %c0 : i32
    %p = mem.lea %out, %item : !mem.ptr<!mem.array<? x i32>, 1>
    %s1 = mem.store %b1, %p, %x : !mem.ptr<i32, 1>
    %e1, %e3 = gpu.sync_work_items %s1, %b3
    func.return %e1, %e3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
  }
}

// -----

// A shuffle of a constant offset and width (with a barrier): the group's whole warps first, each lane's source
// and valid flag known at compile time, so a warp is one vector load, a vector.shuffle by the
// sources (lanes 16 to 31 read nothing and keep their own) and one vector store, and its flags
// a constant vector; then the items of a partial last warp with the general rule.
// CHECK-LABEL: func.func @down(
// CHECK:         %[[WHOLE:.*]] = arith.divui %n_items, %{{.*}} : index
// CHECK:         scf.for %{{.*}} = %{{.*}} to %[[WHOLE]]
// CHECK:           %[[AT:.*]] = builtin.unrealized_conversion_cast %{{.*}} : !mem.ptr<f32, 5> to !mem.ptr<vector<32xf32>, 5>
// CHECK:           %{{.*}}, %[[LANES:.*]] = mem.load %m5, %[[AT]] : !mem.ptr<vector<32xf32>, 5>
// CHECK-NEXT:      %[[MOVED:.*]] = vector.shuffle %[[LANES]], %[[LANES]] [16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31] : vector<32xf32>, vector<32xf32>
// CHECK:           mem.store %m5, %{{.*}}, %[[MOVED]] : !mem.ptr<vector<32xf32>, 5>
// CHECK:           %[[TRUE:.*]] = vector.broadcast %{{.*}} : i8 to vector<32xi8>
// CHECK:           %[[FALSE:.*]] = vector.broadcast %{{.*}} : i8 to vector<32xi8>
// CHECK-NEXT:      %[[FLAGS:.*]] = vector.shuffle %[[TRUE]], %[[FALSE]] [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63] : vector<32xi8>, vector<32xi8>
// CHECK:           mem.store %m5, %{{.*}}, %[[FLAGS]] : !mem.ptr<vector<32xi8>, 5>
// CHECK:         %[[REST:.*]] = arith.muli %[[WHOLE]]
// CHECK:         scf.for %{{.*}} = %[[REST]] to %n_items
builtin.module attributes {gpu.device} {
  func.func @down(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
                  %group: index, %item: index, %out: !mem.ptr<!mem.array<? x f32>, 1>)
      -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) attributes {gpu.kernel} {
    %o = arith.constant 16 : i32
    %w = arith.constant 32 : i32
    %i = arith.index_cast %item : index to i32
    %v = arith.sitofp %i : i32 to f32
    %a1, %a3, %s, %ok = gpu.shuffle "down" %m1, %m3, %v, %o, %w : f32
    %sum = arith.addf %v, %s : f32
    %x = arith.select %ok, %sum, %v : f32
    %p = mem.lea %out, %item : !mem.ptr<!mem.array<? x f32>, 1>
    %s1 = mem.store %a1, %p, %x : !mem.ptr<f32, 1>
    %e1, %e3 = gpu.sync_work_items %s1, %a3
    func.return %e1, %e3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
  }
}

// -----

// A shuffle that only the first warp reaches (`item < 32`: the same for the 32 lanes of each
// warp): the branch runs once per warp, its condition the warp's first lane's, its item loops
// and shuffle over the warp's lanes; no resumable form.
// CHECK-LABEL: func.func @first_warp(
// CHECK:         %[[WARPS:.*]] = arith.divui
// CHECK:         scf.for %[[W:.*]] = %{{.*}} to %[[WARPS]]
// CHECK:           %[[LO:.*]] = arith.muli %[[W]]
// CHECK:           %[[HI:.*]] = arith.minui
// CHECK:           %[[COND:.*]] = arith.cmpi ult, %[[LO]]
// CHECK:           scf.if %[[COND]]
// CHECK:             scf.for %{{.*}} = %[[LO]] to %[[HI]]
// CHECK:             arith.divui %[[LO]]
// CHECK:             arith.divui %[[HI]]
// CHECK-NOT:     func.func @first_warp.resume
builtin.module attributes {gpu.device} {
  func.func @first_warp(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
                        %group: index, %item: index, %out: !mem.ptr<!mem.array<? x i32>, 1>)
      -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) attributes {gpu.kernel} {
    %c32 = arith.constant 32 : index
    %o = arith.constant 16 : i32
    %w = arith.constant 32 : i32
    %v = arith.index_cast %item : index to i32
    %first = arith.cmpi ult, %item, %c32 : index
    %r1, %r3, %x = scf.if %first -> (!mem.M<1>, !mem.M<3>, i32) {
      %a1, %a3, %s, %ok = gpu.shuffle "down" %m1, %m3, %v, %o, %w : i32
      %sum = arith.addi %v, %s : i32
      scf.yield %a1, %a3, %sum : !mem.M<1>, !mem.M<3>, i32
    } else {
      scf.yield %m1, %m3, %v : !mem.M<1>, !mem.M<3>, i32
    }
    %p = mem.lea %out, %item : !mem.ptr<!mem.array<? x i32>, 1>
    %s1 = mem.store %r1, %p, %x : !mem.ptr<i32, 1>
    func.return %s1, %r3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
  }
}

// The statistics of the whole file: the three kernels with item loops, none resumable.
// STATS:      {{^}}CpuWorkgroupLoops
// STATS-NEXT:   (S) 3 num-item-loop-kernels - Number of kernels made work-group functions with item loops
// STATS-NEXT:   (S) 0 num-resumable-kernels - Number of kernels made resumable work-group functions
