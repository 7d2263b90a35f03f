// RUN: gpu-opt %s -p device-to-llvm --verify-diagnostics --split-input-file

// Whatever no stage lowers is an error at that op, not a surprise in the translation.
builtin.module attributes {gpu.device} {
  func.func @f(%a: i32, %b: i32) -> i32 {
    // expected-error @below {{'arith.addui_extended' is not lowered to the llvm dialect: device-to-llvm has no lowering for it}}
    %s, %o = arith.addui_extended %a, %b : i32, i1
    func.return %s : i32
  }
}


// -----

builtin.module attributes {gpu.device} {
  func.func @f(%a: i32, %b: i32) -> i32 {
    // expected-error @below {{'math.ipowi' is not lowered to the llvm dialect: device-to-llvm has no lowering for it}}
    %p = math.ipowi %a, %b : i32
    func.return %p : i32
  }
}


// -----

builtin.module attributes {gpu.device} {
  func.func @f(%c: i1) {
    // expected-error @below {{'cf.assert' is not lowered for the device}}
    cf.assert %c, "boom"
    func.return
  }
}


// -----

// arith and math run on scalars (vector ops are lowered; an upstream program's arith on vectors
// is imported lane by lane).
builtin.module attributes {gpu.device} {
  func.func @f(%a: vector<4xf32>) -> vector<4xf32> {
    // expected-error @below {{'arith.addf' on vector<4xf32> is not lowered: gpuir runs arith and math on scalars (an upstream program's vectors are imported lane by lane)}}
    %b = arith.addf %a, %a : vector<4xf32>
    func.return %b : vector<4xf32>
  }
}


// -----

// A token that something still holds on to (here a store into a host-only stream slot, which
// no device lowering knows) is reported at its user.
builtin.module attributes {gpu.device} {
  func.func @f(%m0: !mem.M<0>, %p: !mem.ptr<!gpu.stream, 0>, %s: !gpu.stream) -> !mem.M<0> {
    // expected-error @below {{'mem.store': a value of type !gpu.stream has no LLVM equivalent}}
    %a0 = mem.store %m0, %p, %s : !mem.ptr<!gpu.stream, 0>
    func.return %a0 : !mem.M<0>
  }
}
