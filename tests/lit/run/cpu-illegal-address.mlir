// A planted bug: a vector add without its bounds guard. 4 work-groups of 256 items run over
// 1000-element arrays, so items 1000 to 1023 read past the end of %a (and %b, and store past %c). On the cpu provider the
// device arrays live in an arena with guard pages: the store faults, and the launch reports it
// in CUDA's words, with the address next to its allocation and the lowest faulting work-group.
// interp finds the same bug at the store.
// RUN: not gpu-run %s --provider cpu 2>&1 | filecheck %s --check-prefix=CPU
// RUN: not gpu-run %s --provider interp 2>&1 | filecheck %s --check-prefix=INTERP

// CPU:      cpu-illegal-address.mlir:41:3: error: cpu: an illegal memory access in @vadd at address 0x{{[0-9a-f]+}} ({{[0-9]+}} bytes past the end of a 4000-byte global allocation (by 'gpu.alloc.block' at {{.*}}cpu-illegal-address.mlir:35:3)), in work-group 3
// CPU-NEXT:   %l0, %l1, %l4 = gpu.launch @vadd
// CPU-NOT:  Traceback
// INTERP:   cpu-illegal-address.mlir:23:3: error: out of bounds: work-item (group 3, item 232) loads 4 bytes from byte offset 4000 of a 4000-byte global allocation (by 'gpu.alloc.block' at {{.*}}cpu-illegal-address.mlir:35:3)

func.func @vadd(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
                %g: index, %i: index,
                %a: !mem.ptr<!mem.array<? x f32>, 1>, %b: !mem.ptr<!mem.array<? x f32>, 1>,
                %c: !mem.ptr<!mem.array<? x f32>, 1>)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
  %size = arith.constant 256 : index
  %base = arith.muli %g, %size : index
  %k = arith.addi %base, %i : index
  %pa = mem.lea %a, %k : !mem.ptr<!mem.array<? x f32>, 1>
  %t1, %x = mem.load %m1, %pa : !mem.ptr<f32, 1>
  %pb = mem.lea %b, %k : !mem.ptr<!mem.array<? x f32>, 1>
  %t2, %y = mem.load %t1, %pb : !mem.ptr<f32, 1>
  %s = arith.addf %x, %y : f32
  %pc = mem.lea %c, %k : !mem.ptr<!mem.array<? x f32>, 1>
  %t3 = mem.store %t2, %pc, %s : !mem.ptr<f32, 1>
  func.return %t3, %m3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}

func.func @main(%m: !mem.M<0>) -> (!mem.M<0>) {
  %m0, %m1, %m4 = gpu.init %m
  %n = arith.constant 1000 : index
  %a1, %da = gpu.alloc.block %m1, %n : !mem.ptr<!mem.array<? x f32>, 1>
  %a2, %db = gpu.alloc.block %a1, %n : !mem.ptr<!mem.array<? x f32>, 1>
  %a3, %dc = gpu.alloc.block %a2, %n : !mem.ptr<!mem.array<? x f32>, 1>
  %stream = gpu.default_stream
  %groups = arith.constant 4 : index
  %items = arith.constant 256 : index
  %l0, %l1, %l4 = gpu.launch @vadd grid(%groups, %items) stream(%stream) mems(%m0, %a3, %m4)
      args(%da, %db, %dc) : (!mem.ptr<!mem.array<? x f32>, 1>, !mem.ptr<!mem.array<? x f32>, 1>,
                             !mem.ptr<!mem.array<? x f32>, 1>)
  %f1 = gpu.free.block %l1, %da : !mem.ptr<!mem.array<? x f32>, 1>
  %f2 = gpu.free.block %f1, %db : !mem.ptr<!mem.array<? x f32>, 1>
  %f3 = gpu.free.block %f2, %dc : !mem.ptr<!mem.array<? x f32>, 1>
  %e = gpu.deinit %l0, %f3, %l4
  func.return %e : !mem.M<0>
}
