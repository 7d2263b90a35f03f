func.func @f() {
  func.return
}

{-#
  external_resources: {
    tool: { data: "x"
#-}
