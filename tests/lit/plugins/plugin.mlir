// A pass plugin (Inputs/count_launches.py, docs/plugins.md) works wherever a pass name does:
// gpu-opt's -p, split-apply's sub-pipelines, gpu-run's -p, from --load-pass-plugin or
// $GPUIR_PLUGINS; a plugin that cannot load is a diagnostic.
// RUN: gpu-opt %s --load-pass-plugin=%S/Inputs/count_launches.py -p count-launches | filecheck %s
// RUN: env GPUIR_PLUGINS=%S/Inputs/count_launches.py gpu-opt %s -p count-launches | filecheck %s
// RUN: gpu-opt %s --load-pass-plugin=%S/Inputs/count_launches.py -p 'gpu-pipeline{host-pipeline="host-malloc-to-gpualloc,count-launches"}' | filecheck %s --check-prefix=HOST
// RUN: gpu-run %s --load-pass-plugin=%S/Inputs/count_launches.py -p 'gpu-pipeline,count-launches' --provider cpu | filecheck %s --check-prefix=OUT
// RUN: gpu-opt --load-pass-plugin=%S/Inputs/count_launches.py --list-passes | filecheck %s --check-prefix=LIST
// RUN: not gpu-opt %s -p count-launches 2>&1 | filecheck %s --check-prefix=UNKNOWN
// RUN: not gpu-opt %s --load-pass-plugin=%S/Inputs/duplicate.py 2>&1 | filecheck %s --check-prefix=DUP
// RUN: not gpu-opt %s --load-pass-plugin=%S/Inputs/nothing.py 2>&1 | filecheck %s --check-prefix=NOTHING
// RUN: not gpu-run %s --load-pass-plugin=%S/Inputs/missing.py 2>&1 | filecheck %s --check-prefix=MISSING

// CHECK:   builtin.module attributes {count.launches = 1 : i64}
// HOST:    builtin.module @host attributes {count.launches = 1 : i64}
// OUT:     7
// LIST:    {{^}}count-launches{{$}}
// LIST-NEXT: Give the module the attribute `count.launches`
// UNKNOWN: gpu-opt: error: unknown pass 'count-launches'
// DUP:     gpu-opt: error: plugin '{{.*}}duplicate.py' defines the pass 'cse', which exists already
// NOTHING: gpu-opt: error: plugin '{{.*}}nothing.py' defines no pass (a ModulePass subclass), no dialect and no target (a Target subclass)
// MISSING: gpu-run: error: cannot load the plugin '{{.*}}missing.py': no such file

func.func @k(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
             %group: index, %item: index, %p: !mem.ptr<i32, 1>)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
  %v = arith.constant 7 : i32
  %t = mem.store %m1, %p, %v : !mem.ptr<i32, 1>
  func.return %t, %m3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}

func.func @main(%m: !mem.M<0>) -> (!mem.M<0>, i32) {
  %m0, %m1, %m4 = gpu.init %m
  %h0, %h = mem.alloc %m0 : !mem.ptr<i32, 0>
  %d1, %d = gpu.alloc.block %m1 : !mem.ptr<i32, 1>
  %s = gpu.default_stream
  %one = arith.constant 1 : index
  %l0, %l1, %l4 = gpu.launch @k grid(%one, %one) stream(%s) mems(%h0, %d1, %m4)
      args(%d) : (!mem.ptr<i32, 1>)
  %c0, %c1 = gpu.copy_to_host.block %l0, %l1, %d -> %h : !mem.ptr<i32, 1> -> !mem.ptr<i32, 0>
  %r0, %r = mem.load %c0, %h : !mem.ptr<i32, 0>
  %f1 = gpu.free.block %c1, %d : !mem.ptr<i32, 1>
  %f0 = mem.free %r0, %h : !mem.ptr<i32, 0>
  %e = gpu.deinit %f0, %f1, %l4
  func.return %e, %r : !mem.M<0>, i32
}
