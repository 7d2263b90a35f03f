func.func @f() {
  func.return
}

{-#
  external_resources: {
    mlir_reproducer: {
      pipeline: "builtin.module(func.func(cse)",
      disable_threading: true,
      verify_each: true
    }
  }
#-}
