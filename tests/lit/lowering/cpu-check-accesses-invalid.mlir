// RUN: not gpu-opt %s -p cpu-check-accesses 2>&1 | filecheck %s

// The pass lowers device modules; a program that was not split has none.
// CHECK: cpu-check-accesses-invalid.mlir:5:1: error: cpu-check-accesses: found no device module (a builtin.module with the gpu.device attribute); run split-apply (or gpu-pipeline) first
builtin.module {
}
