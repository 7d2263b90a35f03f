// IR printing with mlir-opt's flags, to stderr: before and after named passes, before and
// after all, only after a change, after a failure, at module scope; inside composite passes.
// RUN: gpu-opt %s -p 'builtin.module(func.func(canonicalize, cse))' --mlir-print-ir-before=cse --mlir-print-ir-after=canonicalize 2>&1 >/dev/null | filecheck %s --check-prefix=NAMED
// RUN: gpu-opt %s -p 'builtin.module(func.func(canonicalize, cse))' --mlir-print-ir-before-all 2>&1 >/dev/null | filecheck %s --check-prefix=BEFORE-ALL
// RUN: gpu-opt %s -p 'builtin.module(func.func(canonicalize, cse))' --mlir-print-ir-after-all --mlir-print-ir-after-change 2>&1 >/dev/null | filecheck %s --check-prefix=CHANGE
// RUN: gpu-opt %s -p 'builtin.module(func.func(cse))' --mlir-print-ir-after-all --mlir-print-ir-module-scope 2>&1 >/dev/null | filecheck %s --check-prefix=SCOPE
// RUN: gpu-opt %s -p 'gpu-pipeline' --mlir-print-ir-after=remove-double-syncs 2>&1 >/dev/null | filecheck %s --check-prefix=STAGE
// RUN: not gpu-opt %s --load-pass-plugin=%S/Inputs/faulty_passes.py -p 'builtin.module(func.func(crash-on))' --mlir-print-ir-after-failure 2>&1 | filecheck %s --check-prefix=FAILURE

// NAMED:      // -----// IR Dump After Canonicalize (canonicalize) //----- //
// NAMED-NEXT: func.func @f(%a: i32) -> i32 {
// NAMED-NEXT:   %e = arith.addi %a, %a : i32
// NAMED:      // -----// IR Dump Before CommonSubexpressionElimination (cse) //----- //
// NAMED-NEXT: func.func @f(%a: i32) -> i32 {
// NAMED:      // -----// IR Dump After Canonicalize (canonicalize) //----- //
// NAMED-NEXT: func.func @g() {
// NAMED:      // -----// IR Dump Before CommonSubexpressionElimination (cse) //----- //
// NAMED-NEXT: func.func @g() {
// NAMED:      // -----// IR Dump After Canonicalize (canonicalize) //----- //
// NAMED-NEXT: func.func @crash() {

// BEFORE-ALL:      // -----// IR Dump Before Canonicalize (canonicalize) //----- //
// BEFORE-ALL-NEXT: func.func @f(%a: i32) -> i32 {
// BEFORE-ALL-NEXT:   %c = arith.constant 0 : i32
// BEFORE-ALL:      // -----// IR Dump Before CommonSubexpressionElimination (cse) //----- //
// BEFORE-ALL:      // -----// IR Dump Before Canonicalize (canonicalize) //----- //
// BEFORE-ALL-NEXT: func.func @g() {
// BEFORE-ALL-NOT:  IR Dump After

// Canonicalize changes @f; cse changes nothing, and neither pass changes @g.
// CHANGE:      // -----// IR Dump After Canonicalize (canonicalize) //----- //
// CHANGE-NEXT: func.func @f(%a: i32) -> i32 {
// CHANGE-NOT:  IR Dump

// SCOPE:      // -----// IR Dump After CommonSubexpressionElimination (cse) ('func.func' operation: @f) //----- //
// SCOPE-NEXT: builtin.module {
// SCOPE-NEXT:   func.func @f(%a: i32) -> i32 {
// SCOPE:      // -----// IR Dump After CommonSubexpressionElimination (cse) ('func.func' operation: @g) //----- //
// SCOPE-NEXT: builtin.module {

// STAGE:      // -----// IR Dump After RemoveDoubleSyncs (remove-double-syncs) //----- //
// STAGE-NEXT: builtin.module @device attributes {gpu.device} {
// STAGE-NOT:  IR Dump

// FAILURE:      // -----// IR Dump After CrashOn Failed (crash-on) //----- //
// FAILURE-NEXT: func.func @crash() {
// FAILURE:      gpu-opt: internal error in pass 'crash-on': RuntimeError: the pass has a bug

func.func @f(%a: i32) -> i32 {
  %c = arith.constant 0 : i32
  %b = arith.addi %a, %c : i32
  %d = arith.addi %a, %c : i32
  %e = arith.addi %b, %d : i32
  func.return %e : i32
}
func.func @g() {
  func.return
}
func.func @crash() {
  func.return
}
