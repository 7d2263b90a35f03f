// RUN: not gpu-opt %s -t llvm 2>&1 | filecheck %s
//
// Found by the fuzzer (tests/fuzz): an op that device-to-llvm cannot lower for its types (here
// `math.ipowi` on `index`) left a cast the conversion made, and the error was reported at that
// cast, which has no location: `device-to-llvm-located.mlir: error: ...`. It is reported at the
// op that uses the cast's value now, with its line.

// CHECK-NOT: Traceback
builtin.module attributes {gpu.device} {
  func.func @f(%a: index, %b: index) -> index {
    %p = math.ipowi %a, %b : index
    func.return %p : index
  }
}
// CHECK: device-to-llvm-located.mlir:11:5: error: device-to-llvm: a value of type i64 is still used as index by 'math.ipowi': a conversion is missing
// CHECK-NOT: {{Traceback|internal error}}
