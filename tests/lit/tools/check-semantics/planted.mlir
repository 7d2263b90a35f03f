// --check-semantics names the first pass that changes what @main computes, prints or reports,
// with what differs. Each planted pass (Inputs/miscompiles.py) keeps the IR valid.
// RUN: not gpu-opt %S/Inputs/subtract.mlir --load-pass-plugin=%S/Inputs/miscompiles.py -p 'canonicalize,swap-sub-operands,gpu-pipeline' --check-semantics --check-args 10 2>&1 | filecheck %s --check-prefix=SWAP
// RUN: not gpu-opt %S/../../../../examples/manual-sync.mlir --load-pass-plugin=%S/Inputs/miscompiles.py -p 'drop-barriers,gpu-pipeline' --check-semantics --check-args 5 2>&1 | filecheck %s --check-prefix=BARRIER
// RUN: not gpu-opt %S/Inputs/loop-sum.mlir --load-pass-plugin=%S/Inputs/miscompiles.py -p 'off-by-one-loops,gpu-pipeline' --check-semantics --check-args 5 2>&1 | filecheck %s --check-prefix=LOOP
// RUN: not gpu-opt %S/Inputs/atomic-add.mlir --load-pass-plugin=%S/Inputs/miscompiles.py -p 'gpu-pipeline,wrong-atomic' --check-semantics 2>&1 | filecheck %s --check-prefix=ATOMIC
// RUN: not gpu-opt %S/Inputs/store-load.mlir --load-pass-plugin=%S/Inputs/miscompiles.py -p 'load-before-store,gpu-pipeline' --check-semantics --check-args 3 2>&1 | filecheck %s --check-prefix=TOKEN
// RUN: not gpu-opt %S/Inputs/choose.mlir --load-pass-plugin=%S/Inputs/miscompiles.py -p 'swap-if-branches' --check-semantics --check-args 5 2>&1 | filecheck %s --check-prefix=IF
// RUN: not gpu-opt %S/../../../../examples/manual-sync.mlir --load-pass-plugin=%S/Inputs/miscompiles.py -p 'gpu-pipeline{device-pipeline="remove-double-syncs,bump-constants"}' --check-semantics --check-args 5 2>&1 | filecheck %s --check-prefix=DEVICE
// RUN: not gpu-opt %S/../../../../examples/kernel-printf.mlir --load-pass-plugin=%S/Inputs/miscompiles.py -p 'gpu-pipeline{device-pipeline="bump-constants"}' --check-semantics 2>&1 | filecheck %s --check-prefix=PRINTF

// SWAP:      subtract.mlir: error: --check-semantics: pass 'swap-sub-operands' changed what @main computes: result 1 is -9 after it, 9 before (compared with the input)

// A dropped barrier is named with interp's race, at the ops it names.
// BARRIER:      manual-sync.mlir:14:3: error: --check-semantics: pass 'drop-barriers' introduced an error: race on shared memory: work-item (group 0, item 2) writes byte 8 of a 16-byte shared array of group 0 {{.*}} no barrier between them (compared with the input)
// BARRIER-NEXT:   %b3 = mem.store %a3, %mine, %id : !mem.ptr<i32, 3>
// BARRIER:      manual-sync.mlir:19:3: note: the other access, by work-item (group 0, item 1)

// LOOP:      loop-sum.mlir: error: --check-semantics: pass 'off-by-one-loops' changed what @main computes: result 1 is 15 after it, 10 before (compared with the input)
// ATOMIC:    atomic-add.mlir: error: --check-semantics: pass 'wrong-atomic' changed what @main computes: result 1 is 4 after it, 10 before (compared with the input)
// interp's token-order check finds the load that now shares the store's token.
// TOKEN:      store-load.mlir:5:3: error: --check-semantics: pass 'load-before-store' introduced an error: unordered access to host memory: host code writes byte 0 of a 4-byte host allocation {{.*}}, which 'mem.load' at {{.*}}store-load.mlir:6:3 read, and no token chain orders the two: both consume one token (compared with the input)
// TOKEN:      store-load.mlir:6:3: note: the other access
// IF:        choose.mlir: error: --check-semantics: pass 'swap-if-branches' changed what @main computes: result 1 is 2 after it, 1 before (compared with the input)

// A pass in split-apply's device pipeline is named inside gpu-pipeline.
// DEVICE:      manual-sync.mlir:19:3: error: --check-semantics: pass 'bump-constants' introduced an error: out of bounds: work-item (group 0, item 0) loads 4 bytes from byte offset 16 of a 16-byte shared array of group 0 {{.*}} (compared with the input)

// Kernel printf is part of what a user sees.
// PRINTF:    kernel-printf.mlir: error: --check-semantics: pass 'bump-constants' changed the output: line 5 is 'group 0 item 0: after, neighbour = 0.2' after it, 'group 0 item 0: after, neighbour = 0.1' before (compared with the input)
