// RUN: gpu-opt %s -p cpu-workgroup-loops --split-input-file | filecheck %s

// A barrier under a condition on the work-item id: the resumable form. The work-group
// function runs phases (every item to its next stop) until all items returned, checking that
// they stopped at the same place; the item function starts with a switch on where it stopped.
// CHECK-LABEL: func.func @k(
// CHECK-SAME:    gpu.resume_state = 0 : i64, gpu.frame_bytes = 16 : i64, gpu.resume_barriers = {{\[}}["gpu.sync_work_items", "{{.*}}cpu-workgroup-loops-resume.mlir", 31 : i64, 7 : i64]]
// CHECK:         mem.mslot %m5, %{{.*}} : !mem.ptr<!mem.array<? x i8>, 5>
// CHECK:         scf.while
// CHECK:           func.call @k.resume(
// CHECK:           func.call @__gpuir_barrier_divergence(
// CHECK:           scf.condition
// CHECK-LABEL: func.func @k.resume(
// CHECK-SAME:    %state: i32) -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>, i32)
// CHECK-NEXT:    cf.switch %state : i32, [
// CHECK-NEXT:    default: ^[[START:bb[0-9]+]],
// CHECK-NEXT:      1: ^[[AFTER:bb[0-9]+]]
// CHECK:       ^[[START]]:
// CHECK:         cf.cond_br %low, ^[[WAIT:bb[0-9]+]], ^{{bb[0-9]+}}
// CHECK:       ^[[WAIT]]:
// CHECK-NEXT:    %[[ONE:.*]] = arith.constant 1 : i32
// CHECK-NEXT:    func.return %m1, %m3, %m4, %m5, %[[ONE]]
// CHECK:       func.func private @__gpuir_barrier_divergence(i64, i64)
builtin.module attributes {gpu.device} {
  func.func @k(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
               %group: index, %item: index)
      -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) attributes {gpu.kernel} {
    %c2 = arith.constant 2 : index
    %low = arith.cmpi ult, %item, %c2 : index
    %r1, %r3 = scf.if %low -> (!mem.M<1>, !mem.M<3>) {
      %s1, %s3 = gpu.sync_work_items %m1, %m3
      scf.yield %s1, %s3 : !mem.M<1>, !mem.M<3>
    } else {
      scf.yield %m1, %m3 : !mem.M<1>, !mem.M<3>
    }
    func.return %r1, %r3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
  }
}

// -----

// A collective under loop bounds loaded from memory: a resume point too. Each item stores
// its value in the collective area before it stops; between the phases the work-group function
// reduces there (the fixed tree's helper), and each item loads the result where it resumes.
// The value the loop carries is kept in the item's frame across the stop. The collective area
// is sized to what the kernel uses: 1024 values and the tree's scratch of 8 bytes, the result.
// CHECK-LABEL: func.func @k(
// CHECK:         mem.mslot %m5, %{{.*}} : !mem.ptr<!mem.array<? x i8>, 5>
// CHECK:         %[[AREA:.*]] = arith.constant 16448 : index
// CHECK:         func.call @k.resume(
// CHECK:         %[[HERE:.*]] = arith.cmpi eq, %{{.*}}, %{{.*}} : i32
// CHECK-NEXT:    scf.if %[[HERE]] {
// CHECK:           func.call @__gpuir_workgroup_reduce_add_index(
// CHECK-LABEL: func.func @k.resume(
// CHECK:         mem.store %m5, %{{.*}}, %x : !mem.ptr<index, 5>
// CHECK:         %[[STOP:.*]] = arith.constant 1 : i32
// CHECK-NEXT:    func.return %m1, %m3, %m4, %m5, %[[STOP]]
builtin.module attributes {gpu.device} {
  func.func @k(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
               %group: index, %item: index, %n: !mem.ptr<index, 1>)
      -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) attributes {gpu.kernel} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %a1, %count = mem.load %m1, %n : !mem.ptr<index, 1>
    %r1, %r3, %r = scf.for %k = %c0 to %count step %c1 iter_args(%t1 = %a1, %t3 = %m3, %x = %c0)
        -> (!mem.M<1>, !mem.M<3>, index) {
      %s1, %s3, %y = gpu.workgroup_reduce "add" %t1, %t3, %x : index
      scf.yield %s1, %s3, %y : !mem.M<1>, !mem.M<3>, index
    }
    func.return %r1, %r3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
  }
}

// -----

// A condition on a carried value that varies: the resumable form.
// CHECK-LABEL: func.func @k.resume(
// CHECK:         cf.switch %state
builtin.module attributes {gpu.device} {
  func.func @k(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
               %group: index, %item: index)
      -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) attributes {gpu.kernel} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %r1, %r3, %r = scf.for %k = %c0 to %c4 step %c1 iter_args(%t1 = %m1, %t3 = %m3, %x = %c0)
        -> (!mem.M<1>, !mem.M<3>, index) {
      %zero = arith.cmpi eq, %x, %c0 : index
      %u1, %u3 = scf.if %zero -> (!mem.M<1>, !mem.M<3>) {
        %s1, %s3 = gpu.sync_work_items %t1, %t3
        scf.yield %s1, %s3 : !mem.M<1>, !mem.M<3>
      } else {
        scf.yield %t1, %t3 : !mem.M<1>, !mem.M<3>
      }
      %y = arith.addi %x, %item : index
      scf.yield %u1, %u3, %y : !mem.M<1>, !mem.M<3>, index
    }
    func.return %r1, %r3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
  }
}

// -----

// A barrier in scf.while: the loop becomes blocks, the barrier a resume point.
// CHECK-LABEL: func.func @k.resume(
// CHECK:         cf.switch %state
// CHECK-NOT:     scf.while
// CHECK:       func.func private @__gpuir_barrier_divergence
builtin.module attributes {gpu.device} {
  func.func @k(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
               %group: index, %item: index)
      -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) attributes {gpu.kernel} {
    %false = arith.constant false
    %r1, %r3 = scf.while (%t1 = %m1, %t3 = %m3) : (!mem.M<1>, !mem.M<3>) -> (!mem.M<1>, !mem.M<3>) {
      %s1, %s3 = gpu.sync_work_items %t1, %t3
      scf.condition(%false) %s1, %s3 : !mem.M<1>, !mem.M<3>
    } do {
    ^bb0(%a1: !mem.M<1>, %a3: !mem.M<3>):
      scf.yield %a1, %a3 : !mem.M<1>, !mem.M<3>
    }
    func.return %r1, %r3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
  }
}

// -----

// A barrier in a cf block other than the entry: a resume point.
// CHECK-LABEL: func.func @k.resume(
// CHECK:         cf.switch %state : i32, [
// CHECK-NEXT:    default: ^[[START:bb[0-9]+]],
// CHECK-NEXT:      1: ^[[AFTER:bb[0-9]+]]
// CHECK:       ^[[START]]:
// CHECK-NEXT:    cf.br ^[[NEXT:[a-z0-9]+]]
// CHECK:       ^[[NEXT]]:
// CHECK-NEXT:    %[[ONE:.*]] = arith.constant 1 : i32
// CHECK-NEXT:    func.return %m1, %m3, %m4, %m5, %[[ONE]]
// CHECK:       ^[[AFTER]]:
// CHECK-NEXT:    %[[DONE:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    func.return %m1, %m3, %m4, %m5, %[[DONE]]
builtin.module attributes {gpu.device} {
  func.func @k(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
               %group: index, %item: index)
      -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) attributes {gpu.kernel} {
    cf.br ^next
  ^next:
    %s1, %s3 = gpu.sync_work_items %m1, %m3
    func.return %s1, %s3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
  }
}

// -----

// A barrier in a function that the kernel calls: the function is inlined into the kernel (its
// blocks in place of the call, its return a branch to what follows), then the kernel is in
// resumable form; the function itself is gone.
// CHECK-NOT:   func.func @wait
// CHECK-LABEL: func.func @k.resume(
// CHECK:         cf.switch %state : i32, [
// CHECK-NEXT:    default: ^[[START:bb[0-9]+]],
// CHECK-NEXT:      1: ^[[AFTER:bb[0-9]+]]
// CHECK:       ^[[START]]:
// CHECK-NEXT:    cf.br ^[[INLINED:bb[0-9]+]]
// CHECK:       ^[[INLINED]]:
// CHECK-NEXT:    %[[ONE:.*]] = arith.constant 1 : i32
// CHECK-NEXT:    func.return %m1, %m3, %m4, %m5, %[[ONE]]
// CHECK:       ^[[AFTER]]:
// CHECK-NEXT:    cf.br ^[[BACK:bb[0-9]+]](%m1, %m3 : !mem.M<1>, !mem.M<3>)
// CHECK-NOT:   func.call
// CHECK:       func.func private @__gpuir_barrier_divergence
builtin.module attributes {gpu.device} {
  func.func @wait(%m1: !mem.M<1>, %m3: !mem.M<3>) -> (!mem.M<1>, !mem.M<3>) {
    %s1, %s3 = gpu.sync_work_items %m1, %m3
    func.return %s1, %s3 : !mem.M<1>, !mem.M<3>
  }
  func.func @k(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
               %group: index, %item: index)
      -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) attributes {gpu.kernel} {
    %a1, %a3 = func.call @wait(%m1, %m3) : (!mem.M<1>, !mem.M<3>) -> (!mem.M<1>, !mem.M<3>)
    func.return %a1, %a3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
  }
}

// -----

// A warp operation under a condition on the work-item (which a part of a warp may take) is a
// resume point where the lanes of a warp meet: the item stores its operands in the collective
// area and stops; between the phases the work-group function finds
// the warps whose lanes wait at it, checks that all their lanes do, computes the results, and
// runs only those lanes on (the `run` flags).
// CHECK-LABEL: func.func @k(
// CHECK-SAME:    gpu.resume_barriers = {{\[}}["gpu.shuffle",
// CHECK:         scf.while
// CHECK:           scf.if
// CHECK:             func.call @k.resume(
// CHECK:           arith.divui
// CHECK:           arith.xori
// CHECK:           scf.condition
// CHECK-LABEL: func.func @k.resume(
// CHECK:         mem.store %m5, %{{.*}}, %v : !mem.ptr<f32, 5>
// CHECK:         mem.store %m5, %{{.*}}, %o : !mem.ptr<i32, 5>
// CHECK:         mem.store %m5, %{{.*}}, %w : !mem.ptr<i32, 5>
// CHECK:         %[[STOP:.*]] = arith.constant 1 : i32
// CHECK-NEXT:    func.return %m1, %m3, %m4, %m5, %[[STOP]]
builtin.module attributes {gpu.device} {
  func.func @k(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
               %group: index, %item: index, %v: f32, %o: i32, %w: i32, %out: !mem.ptr<f32, 1>)
      -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) attributes {gpu.kernel} {
    %c4 = arith.constant 4 : index
    %low = arith.cmpi ult, %item, %c4 : index
    %a1, %a3, %r = scf.if %low -> (!mem.M<1>, !mem.M<3>, f32) {
      %s1, %s3, %s, %ok = gpu.shuffle "xor" %m1, %m3, %v, %o, %w : f32
      scf.yield %s1, %s3, %s : !mem.M<1>, !mem.M<3>, f32
    } else {
      scf.yield %m1, %m3, %v : !mem.M<1>, !mem.M<3>, f32
    }
    %b1 = mem.store %a1, %out, %r : !mem.ptr<f32, 1>
    func.return %b1, %a3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
  }
}

// RUN: gpu-opt %s -p cpu-workgroup-loops --split-input-file --mlir-pass-statistics -o /dev/null 2>&1 | filecheck %s --check-prefix=STATS

// The statistics of the whole file: the seven kernels above, all resumable.
// STATS:      {{^}}CpuWorkgroupLoops
// STATS-NEXT:   (S) 0 num-item-loop-kernels - Number of kernels made work-group functions with item loops
// STATS-NEXT:   (S) 7 num-resumable-kernels - Number of kernels made resumable work-group functions
