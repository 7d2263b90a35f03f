// RUN: gpu-opt %s -p convert-mem-to-llvm --verify-diagnostics --split-input-file

// Shared memory is static: a mem.mslot there needs a constant size.
builtin.module attributes {gpu.device} {
  func.func @f(%m3: !mem.M<3>, %n: index) -> !mem.M<3> {
    // expected-error @below {{'mem.mslot' in shared memory needs a constant size}}
    %a3, %p = mem.mslot %m3, %n : !mem.ptr<!mem.array<? x i8>, 3>
    func.return %a3 : !mem.M<3>
  }
}


// -----

// No heap in shared, const or local memory, no slot in global or const memory (as
// check-addr-spaces says).
builtin.module attributes {gpu.device} {
  func.func @f(%m5: !mem.M<5>) -> !mem.M<5> {
    // expected-error @below {{'mem.alloc' cannot be used in address space 5 (local)}}
    %a5, %p = mem.alloc %m5 : !mem.ptr<i32, 5>
    func.return %a5 : !mem.M<5>
  }
}


// -----

builtin.module attributes {gpu.device} {
  func.func @f(%m1: !mem.M<1>) -> !mem.M<1> {
    // expected-error @below {{'mem.slot' cannot be used in address space 1 (global)}}
    %a1, %p = mem.slot %m1 : !mem.ptr<i32, 1>
    func.return %a1 : !mem.M<1>
  }
}
