// A diagnostic's note shows the op it is at by its first line, with its regions as `{...}`:
// never a whole function or module. A bad pass name inside split-apply's nested pipeline printed
// the whole module (about 80 lines of examples/array.mlir) as "see current operation".
// RUN: not gpu-opt %s --split-input-file -p 'split-apply{host-pipeline=nosuch}' -o %t 2>&1 \
// RUN:   | filecheck %s

func.func @main(%m: !mem.M<0>) -> (!mem.M<0>, i32) {
  %n = arith.constant 7 : i32
  %t = arith.constant true
  %r = scf.if %t -> (i32) {
    scf.yield %n : i32
  } else {
    scf.yield %n : i32
  }
  func.return %m, %r : !mem.M<0>, i32
}
// CHECK:      note-first-line.mlir: error: split-apply: {{.*}}'nosuch'
// CHECK-NEXT: {{^}}note: see current operation: "builtin.module"() ({...}) : () -> (){{$}}

// -----

// An error at an op with regions: the note is its first line.
func.func @empty(%lb: index, %ub: index, %s: index, %x: f32) -> f32 {
  %r = scf.for %i = %lb to %ub step %s iter_args(%acc = %x) -> (f32) {
  }
  func.return %r : f32
}
// CHECK-NEXT: note-first-line.mlir:[[# @LINE - 4]]:3: error: Operation scf.for contains empty block in single-block region that expects at least a terminator
// CHECK-NEXT: {{^}}  %r = scf.for %i = %lb to %ub step %s iter_args(%acc = %x) -> (f32) {
// CHECK-NEXT: {{^}}  ^
// CHECK-NEXT: {{^}}note: see current operation: %r = "scf.for"(%lb, %ub, %s, %x) ({...}) : (index, index, index, f32) -> f32{{$}}
// CHECK-NOT:  {{.}}
