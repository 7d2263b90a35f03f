// --load-pass-plugin: a program with a plugin's op (hello.world, ../../plugins/Inputs) reduces;
// the candidates are read with the plugin's dialect, and the test's gpu-opt gets the plugin's
// pass and dialect through $GPUIR_PLUGINS. Without the flag the input does not parse.
// RUN: gpu-reduce %s --load-pass-plugin=%S/../../plugins/Inputs/hello_dialect.py --test sh --test-arg=-c --test-arg='gpu-opt "$0" -p count-worlds | grep -q "hello.worlds = 1"' -o %t.mlir
// RUN: gpu-opt %t.mlir --load-pass-plugin=%S/../../plugins/Inputs/hello_dialect.py | filecheck %s
// RUN: not gpu-reduce %s --test grep --test-arg=-q --test-arg=hello.world -o %t.bad.mlir 2>&1 | filecheck %s --check-prefix=NO-PLUGIN
// RUN: not gpu-reduce %s --load-pass-plugin=%S/missing.py --test true -o %t.bad.mlir 2>&1 | filecheck %s --check-prefix=MISSING

// CHECK:     hello.world
// CHECK-NOT: arith

// NO-PLUGIN: gpu-reduce: error: '{{.*}}plugin-dialect.mlir' does not parse and verify: {{.*}}plugin-dialect.mlir:19:3: Operation hello.world is not registered
// MISSING:   gpu-reduce: error: {{.*}}missing.py

func.func @main(%m: !mem.M<0>, %x: i32) -> (!mem.M<0>, i32) {
  %one = arith.constant 1 : i32
  %y = arith.addi %x, %one : i32
  hello.world
  %z = arith.muli %y, %y : i32
  func.return %m, %z : !mem.M<0>, i32
}
