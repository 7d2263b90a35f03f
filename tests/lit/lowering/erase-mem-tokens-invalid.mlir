// RUN: gpu-opt %s -p erase-mem-tokens --verify-diagnostics --split-input-file

// A memory op that is not lowered still needs its token.
builtin.module attributes {gpu.device} {
  func.func @f(%m1: !mem.M<1>, %p: !mem.ptr<i32, 1>) -> (!mem.M<1>, i32) {
    // expected-error @below {{'mem.load' still uses a memory token: it is not lowered}}
    %a1, %v = mem.load %m1, %p : !mem.ptr<i32, 1>
    func.return %a1, %v : !mem.M<1>, i32
  }
}
