func.func @f() {
  func.return
}

{-#
  external_resources: {
    mlir_reproducer: {
      verify_each: true
    }
  }
#-}
