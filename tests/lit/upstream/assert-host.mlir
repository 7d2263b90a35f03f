// cf.assert in host code (in @main and in a host function it calls), as mlir-runner runs MLIR's
// lowering of it (--convert-cf-to-llvm: puts of the message, then abort): a passing assert
// does nothing; a failing one prints its message and a newline on the output, and the program
// stops there with an error at the op and a non-zero exit.
// RUN: not gpu-run %s --provider interp 2> %t.interp.err | filecheck %s --match-full-lines
// RUN: filecheck %s --check-prefix=ERR < %t.interp.err
// RUN: not gpu-run %s --provider cpu 2> %t.cpu.err | filecheck %s --match-full-lines
// RUN: filecheck %s --check-prefix=ERR < %t.cpu.err

// CHECK:      before
// CHECK-NEXT: two below one
// CHECK-NOT:  after

// ERR: assert-host.mlir:35:5: error: assertion failed in host code: two below one

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k() kernel {
      gpu.return
    }
  }
  func.func @check(%a: index, %b: index) {
    %ok = arith.cmpi ult, %a, %b : index
    cf.assert %ok, "a below b"
    return
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %ok = arith.cmpi ult, %c1, %c2 : index
    cf.assert %ok, "one below two"
    func.call @check(%c1, %c2) : (index, index) -> ()
    vector.print str "before\n"
    %bad = arith.cmpi ult, %c2, %c1 : index
    cf.assert %bad, "two below one"
    vector.print str "after\n"
    return
  }
}
