// Launches the device cannot run are refused before they reach the driver, with the limit:
// 2048 work-items in one group (CUDA devices run at most 1024 per block).
// RUN: not gpu-run %s --provider cuda 2>&1 | filecheck %s

// CHECK:      launch-configuration.mlir:19:3: error: cuda: invalid launch configuration of @kernel: 2048 work-items per group, but this device runs at most {{[0-9]+}} per group of @kernel
// CHECK-NOT:  Traceback

func.func @kernel(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
                  %group: index, %item: index)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
  func.return %m1, %m3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}

func.func @main(%m: !mem.M<0>) -> !mem.M<0> {
  %m0, %m1, %m4 = gpu.init %m
  %s = gpu.default_stream
  %one = arith.constant 1 : index
  %items = arith.constant 2048 : index
  %l0, %l1, %l4 = gpu.launch @kernel grid(%one, %items) stream(%s) mems(%m0, %m1, %m4)
      args() : ()
  %done = gpu.deinit %l0, %l1, %l4
  func.return %done : !mem.M<0>
}
