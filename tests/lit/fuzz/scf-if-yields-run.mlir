// RUN: not gpu-run %s --provider interp 2>&1 | filecheck %s
//
// The error of scf-if-yields.mlir from gpu-run, in a kernel, where the interpreter used to fail
// with an internal error ("Incorrect number of results for op scf.if, expected 1 but got 0").

// CHECK-NOT: Traceback
func.func @k(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
             %group: index, %item: index, %out: !mem.ptr<i32, 1>)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
  %zero = arith.constant 0 : index
  %first = arith.cmpi eq, %item, %zero : index
  %r1 = scf.if %first -> (!mem.M<1>) {
    %seven = arith.constant 7 : i32
    %s1 = mem.store %m1, %out, %seven : !mem.ptr<i32, 1>
  } else {
    scf.yield %m1 : !mem.M<1>
  }
  func.return %r1, %m3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}

func.func @main(%m: !mem.M<0>) -> !mem.M<0> {
  %m0, %m1, %m4 = gpu.init %m
  %a1, %out = gpu.alloc.block %m1 : !mem.ptr<i32, 1>
  %s = gpu.default_stream
  %two = arith.constant 2 : index
  %l0, %l1, %l4 = gpu.launch @k grid(%two, %two) stream(%s) mems(%m0, %a1, %m4)
      args(%out) : (!mem.ptr<i32, 1>)
  %f1 = gpu.free.block %l1, %out : !mem.ptr<i32, 1>
  %done = gpu.deinit %l0, %f1, %l4
  func.return %done : !mem.M<0>
}
// CHECK: scf-if-yields-run.mlir:12:3: error: 'scf.if' has results (!mem.M<1>) but its then region yields ()
// CHECK-NOT: {{Traceback|internal error}}
