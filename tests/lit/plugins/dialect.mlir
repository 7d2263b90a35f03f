// A plugin's dialect is known to the parser once the plugin is loaded; without it, the op is
// unknown.
// RUN: gpu-opt %s --load-pass-plugin=%S/Inputs/hello_dialect.py -p count-worlds | filecheck %s
// RUN: not gpu-opt %s 2>&1 | filecheck %s --check-prefix=UNKNOWN

// CHECK:      builtin.module attributes {hello.worlds = 2 : i64} {
// CHECK-NEXT:   hello.world
// CHECK-NEXT:   hello.world
// UNKNOWN:    error: Operation hello.world is not registered

hello.world
hello.world
