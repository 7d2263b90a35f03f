// An op-anchored pass plugin (Inputs/count_calls.py, docs/plugins.md): an OpPass on func.func
// with a statistic. It runs nested under its op, or in a flat list (also split-apply's
// sub-pipelines) on every function of the module; nested under another op it is an error that
// says where it belongs.
// RUN: gpu-opt %s --load-pass-plugin=%S/Inputs/count_calls.py -p 'builtin.module(func.func(count-calls))' | filecheck %s
// RUN: gpu-opt %s --load-pass-plugin=%S/Inputs/count_calls.py -p count-calls | filecheck %s
// RUN: gpu-opt %s --load-pass-plugin=%S/Inputs/count_calls.py -p 'builtin.module(func.func(count-calls))' --mlir-pass-statistics -o /dev/null 2>&1 | filecheck %s --check-prefix=STATS
// RUN: gpu-opt %s --load-pass-plugin=%S/Inputs/count_calls.py -p count-calls --mlir-pass-statistics -o /dev/null 2>&1 | filecheck %s --check-prefix=FLAT
// RUN: gpu-opt %s --load-pass-plugin=%S/Inputs/count_calls.py -p 'split-apply{host-pipeline="count-calls" device-pipeline=""}' --mlir-pass-statistics -o /dev/null 2>&1 | filecheck %s --check-prefix=SPLIT
// RUN: not gpu-opt %s --load-pass-plugin=%S/Inputs/count_calls.py -p 'builtin.module(count-calls)' 2>&1 | filecheck %s --check-prefix=WRONG
// RUN: gpu-opt --load-pass-plugin=%S/Inputs/count_calls.py --list-passes | filecheck %s --check-prefix=LIST

// CHECK:      func.func @leaf(%x: i32) -> i32 attributes {count.calls = 0 : i64} {
// CHECK:      func.func @twice(%x: i32) -> i32 attributes {count.calls = 2 : i64} {
// CHECK:      func.func @main(%m: !mem.M<0>, %x: i32) -> (!mem.M<0>, i32) attributes {count.calls = 1 : i64} {

// The pass ran on each of the three functions; the report sums the calls of all three.
// STATS:      {{^}}'func.func' Pipeline
// STATS-NEXT:   CountCalls
// STATS-NEXT:     (S) 3 num-calls - Number of func.call ops counted
// STATS-NOT:  CountCalls

// In a flat list an op pass runs on every function of the module, as one pass.
// FLAT:      {{^}}CountCalls
// FLAT-NEXT:   (S) 3 num-calls - Number of func.call ops counted

// SPLIT:      'builtin.module' Pipeline @host
// SPLIT-NEXT:     CountCalls
// SPLIT-NEXT:       (S) 3 num-calls - Number of func.call ops counted
// SPLIT-NEXT:   'builtin.module' Pipeline @device

// WRONG: gpu-opt: error: bad pass pipeline 'builtin.module(count-calls)': pass 'count-calls' runs on 'func.func' ops, not on 'builtin.module': did you mean builtin.module(func.func(count-calls))?{{$}}

// LIST:      {{^}}count-calls{{$}}
// LIST-NEXT: Give each function the attribute `count.calls`: how many func.call ops it holds.

func.func @leaf(%x: i32) -> i32 {
  func.return %x : i32
}

func.func @twice(%x: i32) -> i32 {
  %a = func.call @leaf(%x) : (i32) -> i32
  %b = func.call @leaf(%a) : (i32) -> i32
  func.return %b : i32
}

func.func @main(%m: !mem.M<0>, %x: i32) -> (!mem.M<0>, i32) {
  %r = func.call @twice(%x) : (i32) -> i32
  func.return %m, %r : !mem.M<0>, i32
}
