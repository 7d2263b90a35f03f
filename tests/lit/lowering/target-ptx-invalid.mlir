// RUN: not gpu-opt %s -t 'ptx{sm=42}' 2>&1 | filecheck %s --check-prefix=SM
// RUN: not gpu-opt %s -t 'ptx{sm=90 ptx=7.0}' 2>&1 | filecheck %s --check-prefix=PTX
// RUN: not gpu-opt %s -t 'llvm{opt=7}' 2>&1 | filecheck %s --check-prefix=OPT
// RUN: not gpu-opt %s -t 'ptx{line-info=3}' 2>&1 | filecheck %s --check-prefix=LINES
// RUN: not gpu-opt %s -t 'host-llvm{line-info=yes}' 2>&1 | filecheck %s --check-prefix=HOST-LINES
// RUN: not gpu-opt %s -t ptx 2>&1 | filecheck %s --check-prefix=REDUCE

// Bad target options are errors before any work; an op that the device lowering cannot handle
// is an error at that op, with its location.

// SM: gpu-opt: error: bad target 'ptx{sm=42}': sm_42 is not a known NVIDIA architecture; known: 50, 52, 53, 60, 61, 62, 70, 72, 75, 80, 86, 87, 89, 90, 100, 101, 103, 120, 121
// PTX: gpu-opt: error: bad target 'ptx{sm=90 ptx=7.0}': sm_90 needs PTX ISA 7.8 or later, found 7.0
// OPT: gpu-opt: error: bad target 'llvm{opt=7}': opt must be 0, 1, 2 or 3, found 7
// LINES: gpu-opt: error: bad target 'ptx{line-info=3}': Incompatible types: given (3,), expected <class 'bool'>
// HOST-LINES: gpu-opt: error: bad target 'host-llvm{line-info=yes}': Incompatible types: given ('yes',), expected <class 'bool'>

func.func @sum(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
               %group: index, %item: index, %one: f128, %out: !mem.ptr<f128, 1>)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) attributes {gpu.kernel} {
  %a1, %a3, %total = gpu.workgroup_reduce "add" %m1, %m3, %one : f128
  %b1 = mem.store %a1, %out, %total : !mem.ptr<f128, 1>
  func.return %b1, %a3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}

// REDUCE:      target-ptx-invalid.mlir:20:3: error: 'gpu.workgroup_reduce' on f128 has no NVPTX lowering
// REDUCE-NEXT:   %a1, %a3, %total = gpu.workgroup_reduce "add" %m1, %m3, %one : f128
// REDUCE-NEXT:   ^
