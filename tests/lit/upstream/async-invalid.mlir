// What the import of the async dialect refuses, each error at the op; and a program that reads
// host memory before it awaits the execute that copies into it, which interp's stream-order
// check reports (the copy runs on the execute's stream, which nothing has waited for).
// RUN: not gpu-opt %s --upstream --split-input-file 2>&1 | filecheck %s
// RUN: not gpu-run %S/Inputs/async-unawaited.mlir --provider interp 2>&1 | filecheck %s --check-prefix=UNAWAITED

// UNAWAITED: async-unawaited.mlir:[[#LOAD:]]:3: error: unordered access to host memory: 'mem.load' on the host reads byte 0 of a 16-byte host allocation (by 'mem.alloc' at {{.*}}), which 'gpu.copy_to_host.asyn' at {{.*}}async-unawaited.mlir:[[#COPY:]]:5 on stream 1 wrote, and no stream sync orders the two
// UNAWAITED: async-unawaited.mlir:[[#COPY]]:5: note: the other access, on stream 1

// CHECK: async-invalid.mlir:[[# @LINE + 4]]:5: error: importing upstream MLIR: 'async.execute' inside another async.execute is not supported
func.func @main() {
  %c1 = arith.constant 1 : index
  %t0 = async.execute {
    %t1 = async.execute {
      async.yield
    }
    async.yield
  }
  async.await %t0 : !async.token
  return
}

// -----

// CHECK: async-invalid.mlir:[[# @LINE + 7]]:3: error: importing upstream MLIR: 'async.add_to_group' whose index is used is not supported
func.func @main() {
  %c1 = arith.constant 1 : index
  %g = async.create_group %c1 : !async.group
  %t0 = async.execute {
    async.yield
  }
  %i = async.add_to_group %t0, %g : !async.token
  %j = arith.addi %i, %c1 : index
  async.await_all %g
  return
}
