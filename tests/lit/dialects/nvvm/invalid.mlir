// RUN: gpu-opt %s --verify-diagnostics --split-input-file

// A special register is an i32.
builtin.module {
  llvm.func @k() {
    // expected-error @below {{result 'res' at position 0 does not verify}}
    %t = "nvvm.read.ptx.sreg.tid.x"() : () -> i64
    llvm.return
  }
}

// -----

// The barrier takes nothing.
builtin.module {
  llvm.func @k(%x: i32) {
    // expected-error @below {{Expected 0 operands, but got 1}}
    "nvvm.barrier0"(%x) : (i32) -> ()
    llvm.return
  }
}
