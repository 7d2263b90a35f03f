// RUN: gpu-opt %s -p cpu-workgroup-loops --split-input-file | filecheck %s

// A kernel whose warp operations are all at its top level, without barriers, takes the
// warp-vector form (lowering/cpu/warp_vectors.py): a loop over the group's whole warps, each a
// vector<32 x T> of its lanes, then the last partial warp under a mask. Here: a contiguous load
// is one vector load; a "down" shuffle by 16 one shufflevector and a constant valid vector; the
// atomic under `lane == 0` runs once, on lane 0's value; in the partial warp the load is masked,
// the shuffle is the same shufflevector, valid where the whole warp's would be and its source
// lane is below the warp's lane count (lowering/llvm/rules.py's rule, as vectors: no lane by
// lane), and the atomic runs where lane 0 exists.
// CHECK-LABEL: func.func @warp_sum(
// CHECK-SAME:    gpu.workgroup
// CHECK:         %base = arith.muli %group_id
// CHECK:         %[[WHOLE:.*]] = arith.divui %n_items
// CHECK:         scf.for %[[W:.*]] = %{{.*}} to %[[WHOLE]]
// CHECK:           %[[AT:.*]] = mem.lea %x
// CHECK:           %[[P:.*]] = builtin.unrealized_conversion_cast %[[AT]] : !mem.ptr<i64, 1> to !llvm.ptr<1>
// CHECK:           %[[V:.*]] = llvm.load %[[P]] {alignment = 8 : i64} : !llvm.ptr<1> -> vector<32xi64>
// CHECK:           %[[Y:.*]] = llvm.shufflevector %[[V]], %[[V]] [16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31] : vector<32xi64>
// CHECK:           %[[OK:.*]] = llvm.mlir.constant(dense<[true, {{.*}}, false]> : vector<32xi1>) : vector<32xi1>
// CHECK:           %[[S:.*]] = llvm.add %[[V]], %[[Y]] : vector<32xi64>
// CHECK:           %[[X:.*]] = llvm.select %[[OK]], %[[S]], %[[V]] : vector<32xi1>, vector<32xi64>
// CHECK-NOT:       scf.if
// CHECK:           %[[LANE0:.*]] = "llvm.extractelement"(%[[X]], %{{.*}}) : (vector<32xi64>, i64) -> i64
// CHECK-NEXT:      mem.atomic_rmw "add" %m1, %total, %[[LANE0]]
// CHECK:         %[[REST:.*]] = arith.subi %n_items
// CHECK:         %[[PARTIAL:.*]] = arith.cmpi ne, %[[REST]]
// CHECK:         scf.if %[[PARTIAL]] {
// CHECK:           %[[COUNT:.*]] = llvm.shufflevector %{{.*}}, %{{.*}} [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0] : vector<32xi64>
// CHECK:           %[[ACTIVE:.*]] = llvm.icmp "ult" %{{.*}}, %[[COUNT]]
// CHECK:           %[[PV:.*]] = llvm.call_intrinsic "llvm.masked.load.v32i64.p1"({{.*}}, %[[ACTIVE]], {{.*}})
// CHECK-NOT:       scf.for
// CHECK-NOT:       arith.minsi
// CHECK:           %[[PY:.*]] = llvm.shufflevector %[[PV]], %[[PV]] [16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 16,
// CHECK:           %[[WHOLE_OK:.*]] = llvm.mlir.constant(dense<{{.*}}> : vector<32xi1>) : vector<32xi1>
// CHECK:           %[[SOURCES:.*]] = llvm.mlir.constant(dense<[16, 17, {{.*}}]> : vector<32xi64>) : vector<32xi64>
// CHECK-NEXT:      %[[BELOW:.*]] = llvm.icmp "ult" %[[SOURCES]], %[[COUNT]] : vector<32xi64>
// CHECK-NEXT:      %[[POK:.*]] = llvm.and %[[WHOLE_OK]], %[[BELOW]] : vector<32xi1>
// CHECK-NEXT:      llvm.select %[[POK]], %[[PY]], %[[PV]] : vector<32xi1>, vector<32xi64>
// CHECK-NOT:       arith.minsi
// CHECK:           %[[HAS0:.*]] = "llvm.extractelement"(%[[ACTIVE]], %{{.*}}) : (vector<32xi1>, i64) -> i1
// CHECK:           scf.if %[[HAS0]] {
// CHECK:             mem.atomic_rmw "add"
// CHECK-NOT:     mem.mslot
builtin.module attributes {gpu.device} {
  func.func @warp_sum(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
                      %group: index, %item: index, %n: index, %total: !mem.ptr<i64, 1>,
                      %x: !mem.ptr<!mem.array<? x i64>, 1>)
      -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) attributes {gpu.kernel} {
    %c0 = arith.constant 0 : index
    %c256 = arith.constant 256 : index
    %width = arith.constant 32 : i32
    %o16 = arith.constant 16 : i32
    %base = arith.muli %group, %c256 : index
    %i = arith.addi %base, %item : index
    %p = mem.lea %x, %i : !mem.ptr<!mem.array<? x i64>, 1>
    %l1, %v = mem.load %m1, %p : !mem.ptr<i64, 1>
    %a1, %a3, %y, %ok = gpu.shuffle "down" %l1, %m3, %v, %o16, %width : i64
    %s = arith.addi %v, %y : i64
    %x1 = arith.select %ok, %s, %v : i64
    %lane = gpu.lane_id
    %lead = arith.cmpi eq, %lane, %c0 : index
    %f1 = scf.if %lead -> (!mem.M<1>) {
      %t1, %old = mem.atomic_rmw "add" %a1, %total, %x1 : !mem.ptr<i64, 1>
      scf.yield %t1 : !mem.M<1>
    } else {
      scf.yield %a1 : !mem.M<1>
    }
    func.return %f1, %a3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
  }
}

// -----

// A ballot is a bitcast of its lanes' predicates (a scalar: the warp's mask); a branch on a
// condition that splits the warp runs under the lanes' mask: its contiguous store is a masked
// store, the load at a computed index a masked gather from the lanes' 32 addresses.
// CHECK-LABEL: func.func @compact(
// CHECK:         scf.for
// CHECK:           %[[KEEP:.*]] = llvm.icmp "sgt" %{{.*}}, %{{.*}} : vector<32xi32>
// CHECK:           %[[MASK:.*]] = llvm.bitcast %[[KEEP]] : vector<32xi1> to i32
// CHECK:           %[[SPLIT:.*]] = llvm.xor %[[KEEP]], %{{.*}} : vector<32xi1>
// CHECK:           llvm.insertelement {{.*}} : vector<32x!llvm.ptr<1>>
// CHECK:           llvm.call_intrinsic "llvm.masked.gather.v32f32.v32p1"(%{{.*}}, %{{.*}}, %[[KEEP]], %{{.*}}) : (vector<32x!llvm.ptr<1>>
// CHECK-NOT:       scf.if
// CHECK:           llvm.call_intrinsic "llvm.masked.store.v32f32.p1"
// CHECK:           llvm.store {{.*}} : vector<32xi32>, !llvm.ptr<1>
builtin.module attributes {gpu.device} {
  func.func @compact(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
                     %group: index, %item: index, %n: index, %x: !mem.ptr<!mem.array<? x i32>, 1>,
                     %f: !mem.ptr<!mem.array<? x f32>, 1>, %masks: !mem.ptr<!mem.array<? x i32>, 1>)
      -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) attributes {gpu.kernel} {
    %c7 = arith.constant 7 : index
    %zero = arith.constant 0 : i32
    %base = arith.muli %group, %n : index
    %i = arith.addi %base, %item : index
    %p = mem.lea %x, %i : !mem.ptr<!mem.array<? x i32>, 1>
    %l1, %v = mem.load %m1, %p : !mem.ptr<i32, 1>
    %keep = arith.cmpi sgt, %v, %zero : i32
    %b1, %b3, %mask = gpu.ballot %l1, %m3, %keep
    %r1 = scf.if %keep -> (!mem.M<1>) {
      %j = arith.muli %i, %c7 : index
      %pj = mem.lea %f, %j : !mem.ptr<!mem.array<? x f32>, 1>
      %g1, %got = mem.load %b1, %pj : !mem.ptr<f32, 1>
      %pi = mem.lea %f, %i : !mem.ptr<!mem.array<? x f32>, 1>
      %s1 = mem.store %g1, %pi, %got : !mem.ptr<f32, 1>
      scf.yield %s1 : !mem.M<1>
    } else {
      scf.yield %b1 : !mem.M<1>
    }
    %pm = mem.lea %masks, %i : !mem.ptr<!mem.array<? x i32>, 1>
    %e1 = mem.store %r1, %pm, %mask : !mem.ptr<i32, 1>
    func.return %e1, %b3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
  }
}

// -----

// The lane-0 atomic is the kernel's only access to global memory, and its value is lane 0's
// sum of %x over the warp (five "down" shuffles by 16 ... 1; a compile-time check of which lanes
// each lane adds up): the whole warps add their %x vectors into one (no shuffles left), which
// one reduction sums; the partial warp adds its lane 0's value; the group adds its sum to its
// thread's, at the start of the thread's shared memory, which the launch entry adds to %total
// (its argument 1, `gpu.deferred_atomic`) with one atomic after the thread's groups.
// CHECK-LABEL: func.func @sum_of_squares(
// CHECK-SAME:    gpu.deferred_atomic = 1 : i64
// CHECK:         %[[SUMS:.*]] = scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (vector<32xi64>) {
// CHECK-NOT:       mem.atomic_rmw
// CHECK:           %[[X:.*]] = llvm.mul %{{.*}}, %{{.*}} : vector<32xi64>
// CHECK-NOT:       mem.atomic_rmw
// CHECK:           %[[MORE:.*]] = llvm.add %[[ACC]], %[[X]] : vector<32xi64>
// CHECK-NEXT:      scf.yield %[[MORE]] : vector<32xi64>
// CHECK:         %[[TOTAL:.*]] = llvm.call_intrinsic "llvm.vector.reduce.add.v32i64"(%[[SUMS]])
// CHECK:         %[[ALL:.*]] = scf.if %{{.*}} -> (i64) {
// CHECK:           arith.addi %[[TOTAL]]
// CHECK:         } else {
// CHECK-NEXT:      scf.yield %[[TOTAL]] : i64
// CHECK:         %[[SLOT:.*]] = builtin.unrealized_conversion_cast %{{.*}} : !mem.ptr<i8, 3> to !mem.ptr<i64, 3>
// CHECK-NEXT:    %{{.*}}, %[[BEFORE:.*]] = mem.load %m3, %[[SLOT]] : !mem.ptr<i64, 3>
// CHECK-NEXT:    %[[SUM:.*]] = arith.addi %[[BEFORE]], %[[ALL]] : i64
// CHECK-NEXT:    mem.store %{{.*}}, %[[SLOT]], %[[SUM]] : !mem.ptr<i64, 3>
// CHECK-NEXT:    func.return
builtin.module attributes {gpu.device} {
  func.func @sum_of_squares(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
                            %group: index, %item: index, %n: index, %total: !mem.ptr<i64, 1>)
      -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) attributes {gpu.kernel} {
    %c0 = arith.constant 0 : index
    %w = arith.constant 32 : i32
    %base = arith.muli %group, %n : index
    %i = arith.addi %base, %item : index
    %v = arith.index_cast %i : index to i64
    %x = arith.muli %v, %v : i64
    %o16 = arith.constant 16 : i32
    %a1, %a3, %y16, %ok16 = gpu.shuffle "down" %m1, %m3, %x, %o16, %w : i64
    %s16 = arith.addi %x, %y16 : i64
    %x16 = arith.select %ok16, %s16, %x : i64
    %o8 = arith.constant 8 : i32
    %b1, %b3, %y8, %ok8 = gpu.shuffle "down" %a1, %a3, %x16, %o8, %w : i64
    %s8 = arith.addi %x16, %y8 : i64
    %x8 = arith.select %ok8, %s8, %x16 : i64
    %o4 = arith.constant 4 : i32
    %c1, %c3, %y4, %ok4 = gpu.shuffle "down" %b1, %b3, %x8, %o4, %w : i64
    %s4 = arith.addi %x8, %y4 : i64
    %x4 = arith.select %ok4, %s4, %x8 : i64
    %o2 = arith.constant 2 : i32
    %d1, %d3, %y2, %ok2 = gpu.shuffle "down" %c1, %c3, %x4, %o2, %w : i64
    %s2 = arith.addi %x4, %y2 : i64
    %x2 = arith.select %ok2, %s2, %x4 : i64
    %o1 = arith.constant 1 : i32
    %e1, %e3, %y1, %ok1 = gpu.shuffle "down" %d1, %d3, %x2, %o1, %w : i64
    %s1 = arith.addi %x2, %y1 : i64
    %x1 = arith.select %ok1, %s1, %x2 : i64
    %lane = gpu.lane_id
    %lead = arith.cmpi eq, %lane, %c0 : index
    %f1 = scf.if %lead -> (!mem.M<1>) {
      %t1, %old = mem.atomic_rmw "add" %e1, %total, %x1 : !mem.ptr<i64, 1>
      scf.yield %t1 : !mem.M<1>
    } else {
      scf.yield %e1 : !mem.M<1>
    }
    func.return %f1, %e3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
  }
}

// -----

// A loop whose bounds are the same for a warp's lanes stays one `scf.for`: a carried value
// that differs between lanes is a vector (here the sum), a uniform one a scalar (the offset);
// the shuffle by the carried offset reads each lane's source by the rule, unrolled.
// CHECK-LABEL: func.func @rounds(
// CHECK:         scf.for
// CHECK:           %{{.*}}, %{{.*}} = scf.for %{{.*}} = %c0 to %c5 step %c1 iter_args(%[[ACC:.*]] = %{{.*}}, %[[OFF:.*]] = %sixteen) -> (vector<32xi32>, i32) {
// CHECK:             arith.addi %{{.*}}, %[[OFF]] : i32
// CHECK:             "llvm.extractelement"(%[[ACC]], %{{.*}}) : (vector<32xi32>, i32) -> i32
// CHECK:             %[[HALF:.*]] = arith.shrui %[[OFF]]
// CHECK:             scf.yield %{{.*}}, %[[HALF]] : vector<32xi32>, i32
builtin.module attributes {gpu.device} {
  func.func @rounds(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
                    %group: index, %item: index, %out: !mem.ptr<!mem.array<? x i32>, 1>)
      -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) attributes {gpu.kernel} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c5 = arith.constant 5 : index
    %w = arith.constant 32 : i32
    %sixteen = arith.constant 16 : i32
    %one = arith.constant 1 : i32
    %v = arith.index_cast %item : index to i32
    %r1, %r3, %sum, %off = scf.for %k = %c0 to %c5 step %c1
        iter_args(%t1 = %m1, %t3 = %m3, %acc = %v, %offset = %sixteen)
        -> (!mem.M<1>, !mem.M<3>, i32, i32) {
      %s1, %s3, %got, %ok = gpu.shuffle "down" %t1, %t3, %acc, %offset, %w : i32
      %plus = arith.addi %acc, %got : i32
      %next = arith.select %ok, %plus, %acc : i32
      %half = arith.shrui %offset, %one : i32
      scf.yield %s1, %s3, %next, %half : !mem.M<1>, !mem.M<3>, i32, i32
    }
    %p = mem.lea %out, %item : !mem.ptr<!mem.array<? x i32>, 1>
    %e1 = mem.store %r1, %p, %sum : !mem.ptr<i32, 1>
    func.return %e1, %r3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
  }
}
