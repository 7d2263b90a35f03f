// RUN: gpu-opt %S/../../../../examples/array.mlir -p gpu-pipeline --print-ir-after-all 2>&1 >/dev/null | filecheck %s
// RUN: gpu-opt %S/../../../../examples/array.mlir -p gpu-pipeline --print-ir-after-all 2>/dev/null | filecheck %s --check-prefix=OUT

// --print-ir-after-all prints the IR after each pass to stderr (stdout keeps the result, so
// that it still parses), each stage of gpu-pipeline on its own, in the order of
// docs/pipelines.md.
// CHECK:      // -----// IR after fuse-map-reduce //----- //
// CHECK-NEXT: builtin.module {
// CHECK:      // -----// IR after lower-btensor-map-reduce //----- //
// CHECK:      // -----// IR after merge-init-deinit //----- //
// CHECK:      // -----// IR after btensor-lower-map-reduce //----- //
// CHECK:      // -----// IR after expand-gpu-composites //----- //
// CHECK:      // -----// IR after mem-checks //----- //
// CHECK:      // -----// IR after buffer-lower-ptr //----- //
// CHECK:      // -----// IR after check-addr-spaces //----- //
// CHECK:      // -----// IR after split-apply //----- //
// CHECK:        builtin.module @device attributes {gpu.device} {
// OUT-NOT:    IR after
// OUT:        builtin.module @host {
